// POST /executions/{id}/fork — a new run that starts at a task, the tasks before it taken from
// this run (one optionally edited first). The new run names its origin, as a re-run does.
import type { z } from "zod";
import {
  ForkRequestSchema,
  KICKOFF_BODY_LIMIT_BYTES,
  RerunResponseSchema,
} from "@/lib/contract/crew";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { crewRoute, otherMethods } from "@/lib/http/routes";
import { forkExecution } from "@/lib/runs/fork-execution";

export const dynamic = "force-dynamic";

export const POST = crewRoute<{ id: string }, z.infer<typeof ForkRequestSchema>>(
  async ({ principal, crew, params, body }) => {
    const { from_task: fromTask, edit, ...request } = body;
    const id = await forkExecution({
      db: await getDb(),
      crew,
      principal,
      originId: params.kickoff_id,
      fromTask,
      edit,
      request,
    });
    return json({ kickoff_id: id, origin_id: params.kickoff_id });
  },
  {
    action: "start",
    body: ForkRequestSchema,
    bodyLimit: KICKOFF_BODY_LIMIT_BYTES,
    response: RerunResponseSchema,
  },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
