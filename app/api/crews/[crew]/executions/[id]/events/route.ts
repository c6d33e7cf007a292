// GET /executions/{id}/events?after=N — the execution's event log after sequence N.
import { EventsQuerySchema } from "@/lib/api/schemas";
import { getDb } from "@/lib/db";
import { errors, zodFieldErrors } from "@/lib/errors";
import { json } from "@/lib/http/respond";
import { crewRoute, otherMethods } from "@/lib/http/routes";
import { getExecutionOrThrow } from "@/lib/runs/get-execution";
import { listEvents } from "@/lib/runs/list-events";

export const dynamic = "force-dynamic";

export const GET = crewRoute<{ id: string }>(async ({ request, principal, crew, params }) => {
  const url = new URL(request.url);
  const query = EventsQuerySchema.safeParse(Object.fromEntries(url.searchParams));
  if (!query.success)
    throw errors.badRequest("Invalid query parameters.", zodFieldErrors(query.error));
  const db = await getDb();
  await getExecutionOrThrow({ db, crew: crew.slug, id: params.id, principal });
  return json(await listEvents({ q: db, id: params.id, ...query.data }));
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
