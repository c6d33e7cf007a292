import { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import { can } from "@/lib/auth/roles";
import { WebhookUrlSchema } from "@/lib/contract/webhook-subscription";
import type { Db } from "@/lib/db/types";
import { AppError, errors } from "@/lib/errors";
import type { ProtocolPush } from "@/lib/run-model/types";
import { invalidateExecution } from "@/lib/runs/execution-cache";
import { mutateExecution } from "@/lib/runs/execution-store";
import { checkWebhookUrl, RefusedUrlError } from "@/lib/webhooks/ssrf";
import { a2aPush } from "./push-payloads";

// A2A push notification configs of a task: kept with its run (the endpoint's credentials and
// token sealed), delivered through the webhook outbox (push-payloads.ts). Answers never
// carry the credentials or the token back.

export const PushConfigSchema = z.looseObject({
  tenant: z.string().optional(),
  id: z.string().optional(),
  taskId: z.string().optional(),
  url: WebhookUrlSchema,
  token: z.string().max(1000).optional(),
  authentication: z
    .looseObject({
      scheme: z.string().min(1).max(100),
      credentials: z.string().max(4000).optional(),
    })
    .optional(),
});
export type PushConfig = z.infer<typeof PushConfigSchema>;

const MAX_PUSHES = 10;

/** The endpoint, checked as webhook URLs are (no private address unless allowed), sealed. */
export async function newPush(config: PushConfig): Promise<ProtocolPush> {
  try {
    await checkWebhookUrl(config.url);
  } catch (err) {
    if (!(err instanceof RefusedUrlError)) throw err;
    throw errors.badRequest(`Push notification URL refused: ${err.message}`, [
      { path: "url", message: `refused: ${err.message}` },
    ]);
  }
  return a2aPush(config);
}

/**
 * Push configs are kept, listed and removed by whoever may start runs: their URLs are where a
 * task's updates go, not for a viewer to read (the delivery log itself is an administrator's).
 */
function assertMayManage(principal: Principal) {
  if (!can(principal, "start"))
    throw new AppError("forbidden", 403, "Your role does not allow this (start).");
}

/** Adds an endpoint to a task's run. */
export async function addPush(db: Db, principal: Principal, runId: string, push: ProtocolPush) {
  assertMayManage(principal);
  await db.tx((q) =>
    mutateExecution(q, { id: runId }, (row) => {
      const pushes = row.webhooks.a2a ?? [];
      if (pushes.length >= MAX_PUSHES)
        throw errors.conflict(`A task takes at most ${MAX_PUSHES} push notification configs.`);
      return { patch: { webhooks: { ...row.webhooks, a2a: [...pushes, push] } } };
    }),
  );
  invalidateExecution(runId);
}

/** Removes one; false when the task has no config of that id. */
export async function removePush(db: Db, principal: Principal, runId: string, id: string) {
  assertMayManage(principal);
  let found = false;
  await db.tx((q) =>
    mutateExecution(q, { id: runId }, (row) => {
      const pushes = row.webhooks.a2a ?? [];
      found = pushes.some((p) => p.id === id);
      if (!found) return {};
      return { patch: { webhooks: { ...row.webhooks, a2a: pushes.filter((p) => p.id !== id) } } };
    }),
  );
  invalidateExecution(runId);
  return found;
}

const WebhooksRow = z.object({
  webhooks: z
    .looseObject({
      a2a: z
        .array(
          z.looseObject({ id: z.string(), url: z.string(), headers_sealed: z.string().optional() }),
        )
        .optional(),
    })
    .nullable(),
});

/** The task's endpoints (the run is already known visible to the caller). */
export async function pushesOf(
  db: Db,
  principal: Principal,
  runId: string,
): Promise<ProtocolPush[]> {
  assertMayManage(principal);
  const { rows } = await db.query(
    "SELECT webhooks FROM executions WHERE id = $1",
    [runId],
    WebhooksRow,
  );
  return rows[0]?.webhooks?.a2a ?? [];
}
