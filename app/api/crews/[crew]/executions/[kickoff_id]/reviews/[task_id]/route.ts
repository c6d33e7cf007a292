// POST /executions/{id}/reviews/{task} — claim, release or reassign a task's open review.

import * as crewApi from "@/lib/api/endpoints/crew";
import { otherMethods, runRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { errors } from "@/lib/errors";
import { json } from "@/lib/http/respond";
import { actOnReview } from "@/lib/reviews/claims";

export const dynamic = "force-dynamic";

export const POST = runRoute(
  crewApi.actOnReview,
  async ({ principal, crew, deployment, params, body }) => {
    if (deployment)
      throw errors.conflict(
        "Reviews of a remote deployment's runs are decided there or with /resume; they cannot be claimed or reassigned here.",
      );
    const review = await actOnReview({
      db: await getDb(),
      crew: crew.slug,
      id: params.kickoff_id,
      taskId: params.task_id,
      principal,
      request: body,
    });
    return json(review);
  },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
