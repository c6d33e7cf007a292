// POST /kickoff — queue an execution with the given inputs; answers with its kickoff_id at once.
import { KICKOFF_BODY_LIMIT_BYTES, KickoffRequestSchema } from "@/lib/api/schemas";
import { getDb } from "@/lib/db";
import { kickoffRemote } from "@/lib/deployments/remote-runs";
import { errors, zodFieldErrors } from "@/lib/errors";
import { readJsonBody, requireObject } from "@/lib/http/read-json";
import { json } from "@/lib/http/respond";
import { crewRoute, otherMethods } from "@/lib/http/routes";
import { createExecution } from "@/lib/runs/create-execution";

export const dynamic = "force-dynamic";

export const POST = crewRoute(
  async ({ request, principal, crew, deployment }) => {
    const body = requireObject(await readJsonBody(request, KICKOFF_BODY_LIMIT_BYTES));
    const parsed = KickoffRequestSchema.safeParse(body);
    if (!parsed.success)
      throw errors.badRequest("The kickoff request is invalid.", zodFieldErrors(parsed.error));
    const db = await getDb();
    // A remote crew's run: the deployment checks the inputs; its webhooks come back to us.
    const kickoffId = deployment
      ? await kickoffRemote({ db, deployment, principal, inputs: parsed.data.inputs })
      : await createExecution({ db, crew, principal, request: parsed.data });
    return json({ kickoff_id: kickoffId });
  },
  { action: "start" },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
