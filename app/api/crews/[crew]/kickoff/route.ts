// POST /kickoff — queue an execution with the given inputs; answers with its kickoff_id at once.
import { KICKOFF_BODY_LIMIT_BYTES, KickoffRequestSchema } from "@/lib/api/schemas";
import { getDb } from "@/lib/db";
import { errors, zodFieldErrors } from "@/lib/http/problem";
import { readJsonBody, requireObject } from "@/lib/http/read-json";
import { json } from "@/lib/http/respond";
import { crewRoute, otherMethods } from "@/lib/http/routes";
import { createExecution } from "@/lib/runs/create-execution";

export const dynamic = "force-dynamic";

export const POST = crewRoute(
  async ({ request, principal, crew }) => {
    const body = requireObject(await readJsonBody(request, KICKOFF_BODY_LIMIT_BYTES));
    const parsed = KickoffRequestSchema.safeParse(body);
    if (!parsed.success)
      throw errors.badRequest("The kickoff request is invalid.", zodFieldErrors(parsed.error));
    const kickoffId = await createExecution({
      db: await getDb(),
      crew,
      principal,
      request: parsed.data,
    });
    return json({ kickoff_id: kickoffId });
  },
  { action: "start" },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
