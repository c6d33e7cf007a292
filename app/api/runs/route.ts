// GET /api/runs — executions across crews, newest first, filtered and paginated (the runs table).
import { getDb } from "@/lib/db";
import { errors, zodFieldErrors } from "@/lib/errors";
import { json } from "@/lib/http/respond";
import { apiRoute } from "@/lib/http/routes";
import { ListQuerySchema, listExecutions } from "@/lib/runs/list-executions";

export const dynamic = "force-dynamic";

export const GET = apiRoute(async ({ request, principal }) => {
  const query = ListQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) throw errors.badRequest("Invalid filters.", zodFieldErrors(query.error));
  return json(await listExecutions({ db: await getDb(), principal, query: query.data }));
});
