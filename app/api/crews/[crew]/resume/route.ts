// POST /resume — approve a task that awaits review, or send it back with feedback.

import * as crewApi from "@/lib/api/endpoints/crew";
import { otherMethods, runRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { resumeRemote } from "@/lib/deployments/remote-runs";
import { json } from "@/lib/http/respond";
import { resumeExecution } from "@/lib/reviews/resume-execution";

export const dynamic = "force-dynamic";

export const POST = runRoute(crewApi.resume, async ({ principal, crew, deployment, body }) => {
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
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
