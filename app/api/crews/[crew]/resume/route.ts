// POST /resume — approve a task that awaits review, or send it back with feedback.
import { ResumeRequestSchema } from "@/lib/api/schemas";
import { getDb } from "@/lib/db";
import { resumeRemote } from "@/lib/deployments/remote-runs";
import { errors, zodFieldErrors } from "@/lib/errors";
import { readJsonBody, requireObject } from "@/lib/http/read-json";
import { json } from "@/lib/http/respond";
import { crewRoute, otherMethods } from "@/lib/http/routes";
import { resumeExecution } from "@/lib/runs/resume-execution";

export const dynamic = "force-dynamic";

const REQUIRED = ["execution_id", "task_id", "human_feedback", "is_approve"] as const;

export const POST = crewRoute(
  async ({ request, principal, crew, deployment }) => {
    const body = requireObject(await readJsonBody(request, 1024 * 1024));
    const parsed = ResumeRequestSchema.safeParse(body);
    if (!parsed.success) {
      const missing = REQUIRED.filter((f) => body[f] === undefined || body[f] === null);
      throw errors.unprocessable(
        missing.length
          ? `Missing required fields: ${missing.join(", ")}.`
          : "The resume request is invalid.",
        { missing_fields: missing, errors: zodFieldErrors(parsed.error) },
      );
    }
    if (deployment)
      return json(
        await resumeRemote({ db: await getDb(), deployment, principal, request: parsed.data }),
      );
    return json(
      await resumeExecution({
        db: await getDb(),
        crew: crew.slug,
        principal,
        request: parsed.data,
      }),
    );
  },
  { action: "review" },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
