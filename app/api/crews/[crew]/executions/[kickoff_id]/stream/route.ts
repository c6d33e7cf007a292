// GET /executions/{id}/stream — the event log as Server-Sent Events: everything after
// `Last-Event-ID` (or ?after=N), then each new event as it is written, until the run ends.

import * as crewApi from "@/lib/api/endpoints/crew";
import { otherMethods, runRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { followExecution } from "@/lib/events/live";
import { sseResponse } from "@/lib/http/sse";
import { getExecutionOrThrow } from "@/lib/runs/get-execution";

export const dynamic = "force-dynamic";

const FINAL_EVENTS = new Set(["execution_completed", "execution_failed", "execution_cancelled"]);

export const GET = runRoute(crewApi.stream, async ({ request, principal, crew, params }) => {
  const db = await getDb();
  await getExecutionOrThrow({ db, crew: crew.slug, id: params.kickoff_id, principal });
  const fromHeader = Number(request.headers.get("last-event-id"));
  const fromQuery = Number(new URL(request.url).searchParams.get("after"));
  const last =
    Number.isInteger(fromHeader) && fromHeader > 0
      ? fromHeader
      : Number.isInteger(fromQuery) && fromQuery > 0
        ? fromQuery
        : 0;
  return sseResponse(request, principal, ({ send, close }) =>
    followExecution(
      db,
      params.kickoff_id,
      last,
      (events) => {
        let ended = false;
        for (const e of events) {
          send(`id: ${e.seq}\nevent: execution\ndata: ${JSON.stringify(e)}\n\n`);
          ended ||= FINAL_EVENTS.has(e.type);
        }
        if (ended) {
          send("event: end\ndata: {}\n\n");
          close();
        }
      },
      close,
    ),
  );
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
