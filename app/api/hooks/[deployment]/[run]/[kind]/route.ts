// POST /api/hooks/<deployment>/<run>/<task|step|crew>?t=<secret> — a remote deployment's
// webhooks about a run started from this dashboard, stored into that run's event log.

import * as webhooksApi from "@/lib/api/endpoints/webhooks";
import { noCaller, route } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { receiveRemoteHook } from "@/lib/deployments/receive";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

// The per-run secret in the URL is the credential: receiveRemoteHook checks it first.
export const POST = route(
  webhooksApi.receiveRemoteHook,
  async ({ request, params }) =>
    json(await receiveRemoteHook({ db: await getDb(), request, params })),
  noCaller,
);
