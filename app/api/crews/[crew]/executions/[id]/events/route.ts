// GET /executions/{id}/events?after=N — the execution's event log after sequence N.

import type { z } from "zod";
import { EventsQuerySchema, EventsResponseSchema } from "@/lib/contract/status";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { otherMethods, runRoute } from "@/lib/http/routes";
import { getExecutionOrThrow } from "@/lib/runs/get-execution";
import { listEvents } from "@/lib/runs/list-events";

export const dynamic = "force-dynamic";

export const GET = runRoute<{ id: string }, undefined, z.infer<typeof EventsQuerySchema>>(
  async ({ principal, crew, params, query }) => {
    const db = await getDb();
    await getExecutionOrThrow({ db, crew: crew.slug, id: params.id, principal });
    return json(await listEvents({ q: db, id: params.id, ...query }));
  },
  { query: EventsQuerySchema, response: EventsResponseSchema },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
