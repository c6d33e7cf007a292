// POST /api/hooks/<deployment>/<run>/<task|step|crew>?t=<secret> — a remote deployment's
// webhooks about a run started from this dashboard, stored into that run's event log.

import { getDb } from "@/lib/db";
import { receiveRemoteHook } from "@/lib/deployments/receive";
import { toProblem } from "@/lib/http/problem";
import { json } from "@/lib/http/respond";
import { asUnavailable } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

export async function POST(
  request: Request,
  context: { params: Promise<{ deployment: string; run: string; kind: string }> },
) {
  try {
    return json(
      await receiveRemoteHook({ db: await getDb(), request, params: await context.params }),
    );
  } catch (err) {
    return toProblem(asUnavailable(err) ?? err);
  }
}
