// POST /api/hooks/<deployment>/<run>/<task|step|crew>?t=<secret> — a remote deployment's
// webhooks about a run started from this dashboard, stored into that run's event log.

import { RemoteHookResultSchema } from "@/lib/contract/webhooks";
import { getDb } from "@/lib/db";
import { receiveRemoteHook } from "@/lib/deployments/receive";
import { json } from "@/lib/http/respond";
import { noCaller, route } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

// The per-run secret in the URL is the credential: receiveRemoteHook checks it first.
export const POST = route<null, { deployment: string; run: string; kind: string }>(
  { ...noCaller, action: "secret", response: RemoteHookResultSchema },
  async ({ request, params }) =>
    json(await receiveRemoteHook({ db: await getDb(), request, params })),
);
