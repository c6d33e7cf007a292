// POST /resume — approve a task that awaits review, or send it back with feedback.

import type { z } from "zod";
import { ResumeRequestSchema, ResumeResponseSchema } from "@/lib/contract/crew";
import { getDb } from "@/lib/db";
import { resumeRemote } from "@/lib/deployments/remote-runs";
import { json } from "@/lib/http/respond";
import { type NoParams, otherMethods, runRoute } from "@/lib/http/routes";
import { resumeExecution } from "@/lib/reviews/resume-execution";

export const dynamic = "force-dynamic";

export const POST = runRoute<NoParams, z.infer<typeof ResumeRequestSchema>>(
  async ({ principal, crew, deployment, body }) => {
    if (deployment)
      return json(await resumeRemote({ db: await getDb(), deployment, principal, request: body }));
    return json(
      await resumeExecution({
        db: await getDb(),
        crew: crew.slug,
        principal,
        request: body,
      }),
    );
  },
  { action: "review", body: ResumeRequestSchema, response: ResumeResponseSchema },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
