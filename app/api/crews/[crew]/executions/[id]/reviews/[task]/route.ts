// POST /executions/{id}/reviews/{task} — claim, release or reassign a task's open review.

import type { z } from "zod";
import { OpenReviewSchema, ReviewActionSchema } from "@/lib/contract/reviews";
import { getDb } from "@/lib/db";
import { errors } from "@/lib/errors";
import { json } from "@/lib/http/respond";
import { otherMethods, runRoute } from "@/lib/http/routes";
import { actOnReview } from "@/lib/reviews/claims";

export const dynamic = "force-dynamic";

export const POST = runRoute<{ id: string; task: string }, z.infer<typeof ReviewActionSchema>>(
  async ({ principal, crew, deployment, params, body }) => {
    if (deployment)
      throw errors.conflict(
        "Reviews of a remote deployment's runs are decided there or with /resume; they cannot be claimed or reassigned here.",
      );
    const review = await actOnReview({
      db: await getDb(),
      crew: crew.slug,
      id: params.id,
      taskId: params.task,
      principal,
      request: body,
    });
    return json(review);
  },
  { action: "review", body: ReviewActionSchema, response: OpenReviewSchema },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
