import crypto from "node:crypto";
import { z } from "zod";
import { ownerOf, type Principal, principalName } from "@/lib/auth/principal";
import type { ResumeRequest } from "@/lib/contract/crew";
import type { StreamWebhooks } from "@/lib/contract/webhook-subscription";
import type { CrewDef } from "@/lib/crew/schema";
import type { Db } from "@/lib/db/types";
import { AppError, errors } from "@/lib/errors";
import type { RemoteState, WebhookUrls } from "@/lib/run-model/types";
import { withCrews } from "@/lib/runs/crew-definitions";
import { StoredExecutionRow } from "@/lib/runs/execution-row";
import { mutateExecution } from "@/lib/runs/execution-store";
import { getExecutionOrThrow } from "@/lib/runs/get-execution";
import { fieldOf } from "@/lib/util/field";
import { isOneOf } from "@/lib/util/one-of";
import { assertWebhookUrlsAllowed } from "@/lib/webhooks/check-urls";
import { streamSubscription } from "@/lib/webhooks/stream-subscription";
import { applyRemote } from "./apply-remote";
import type { callDeployment } from "./client";
import { hookUrls } from "./hooks";
import { ask, remoteFailure } from "./remote-calls";
import type { Deployment } from "./store";

// Runs of remote deployments. Each is an execution row of its own (crew `@<deployment>`), so the
// runs list, inbox, status, event log and live timeline treat it like a local run; the local
// engine never claims it. Its log is fed by the receivers and the poller.

export const POLL_CHANNEL = "crewdeck_poll";
const remoteCrew = (slug: string) => `@${slug}`;

/** A deployment as a crew: its agents and tasks are not known here, only its name. */
export function remoteCrewDef(deployment: Pick<Deployment, "slug" | "name" | "base_url">): CrewDef {
  return {
    slug: remoteCrew(deployment.slug),
    name: deployment.name,
    description: `Served by ${deployment.base_url}`,
    agents: [],
    tasks: [],
    inputs: [],
    source: [deployment.base_url],
  };
}

/** GET of a path of the deployment, answered as our own route would: its status and body. */
export async function forwardGet(deployment: Deployment, path: "" | "/inputs") {
  const reply = await ask(deployment, "GET", path);
  if (reply.status !== 200)
    throw remoteFailure(path ? "inputs request" : "health check", reply.status, reply.body);
  return reply;
}

/** Stops the run on the deployment, where its API has a stop (Crewdeck's does). */
export async function stopRemote(db: Db, deployment: Deployment, principal: Principal, id: string) {
  await getExecutionOrThrow({ db, crew: remoteCrew(deployment.slug), id, principal });
  const row = await remoteRow(db, id);
  if (!row?.remote_id) throw errors.conflict("This run has not started on the deployment yet.");
  const reply = await ask(deployment, "POST", `/stop/${encodeURIComponent(row.remote_id)}`);
  if (reply.status === 404 || reply.status === 405)
    throw errors.conflict(
      "This deployment has no stop endpoint (it is not part of the Crew Execution Service API): stop the run where it is deployed.",
    );
  if (reply.status !== 200) throw remoteFailure("stop", reply.status, reply.body);
  await pollSoon(db, id);
}

/** Asks the poller (in whichever worker) to look at a still-active remote run now. */
export async function pollSoon(db: Db, id: string) {
  await db.query(
    `WITH due AS (UPDATE executions SET next_poll_at = now()
                   WHERE id = $1 AND next_poll_at IS NOT NULL RETURNING id)
     SELECT pg_notify('${POLL_CHANNEL}', '') FROM due`,
    [id],
  );
}

/**
 * Starts a run on the deployment. The row is written first, so webhooks that arrive before the
 * kickoff answers find it; if the deployment refuses, the row is removed again.
 */
export async function kickoffRemote({
  db,
  deployment,
  principal,
  inputs,
  webhooks,
  origin,
}: {
  db: Db;
  deployment: Deployment;
  principal: Principal;
  inputs: Record<string, unknown>;
  /** The kickoff's `webhooks` stream: the mirrored events go out from here like a local run's. */
  webhooks?: StreamWebhooks;
  /** The run this one starts again, with its inputs edited. */
  origin?: { id: string; kind: "rerun" };
}): Promise<string> {
  const id = crypto.randomUUID();
  const remote: RemoteState = { interval_ms: 2_000 };
  const snapshot = { ...remoteCrewDef(deployment), inputs: Object.keys(inputs) };
  if (webhooks) await assertWebhookUrlsAllowed({ webhooks });
  const urls: WebhookUrls = webhooks ? { stream: streamSubscription(webhooks) } : {};
  await db.query(
    `INSERT INTO executions (id, crew, status, owner_user_id, token_id, inputs, crew_snapshot, tasks, last_seq,
                             deployment_id, remote, next_poll_at, webhooks, origin_id, origin_kind)
     VALUES ($1, $2, 'queued', $3, $4, $5::jsonb, $6::jsonb, '[]'::jsonb, 0, $7, $8::jsonb, NULL, $9::jsonb,
             $10::uuid, $11)`,
    [
      id,
      remoteCrew(deployment.slug),
      ownerOf(principal),
      principal.kind === "session" ? null : principal.tokenId,
      JSON.stringify(inputs),
      JSON.stringify(snapshot),
      deployment.id,
      JSON.stringify(remote),
      JSON.stringify(urls),
      origin?.id ?? null,
      origin?.kind ?? null,
    ],
  );
  let reply: Awaited<ReturnType<typeof callDeployment>>;
  try {
    reply = await ask(deployment, "POST", "/kickoff", { inputs, ...hookUrls(deployment.slug, id) });
  } catch (err) {
    await db.query("DELETE FROM executions WHERE id = $1", [id]);
    throw err;
  }
  const remoteId = fieldOf(reply.body, "kickoff_id");
  if (reply.status !== 200 || typeof remoteId !== "string" || !remoteId) {
    await db.query("DELETE FROM executions WHERE id = $1", [id]);
    if (reply.status === 200)
      throw new AppError(
        "remote-error",
        502,
        "The deployment accepted the kickoff but sent no kickoff_id.",
      );
    throw remoteFailure("kickoff", reply.status, reply.body);
  }
  await db.tx((q) =>
    mutateExecution(q, { id }, () => ({
      patch: { next_poll_at: new Date(Date.now() + 1_000) },
      events: [
        {
          type: "execution_queued",
          data: {
            crew: remoteCrew(deployment.slug),
            inputs,
            deployment: deployment.slug,
            remote_id: remoteId,
          },
        },
      ],
    })).then(() => q.query("UPDATE executions SET remote_id = $2 WHERE id = $1", [id, remoteId])),
  );
  return id;
}
/** The row with its remote bookkeeping, or undefined. */
async function remoteRow(db: Db, id: string) {
  const { rows } = await db.query(
    `SELECT e.*, d.slug FROM executions e JOIN deployments d ON d.id = e.deployment_id WHERE e.id = $1`,
    [id],
    StoredExecutionRow.extend({ slug: z.string() }),
  );
  return (await withCrews(db, rows))[0];
}

const RESUME_STATUSES = ["resumed", "retrying", "completed"] as const;

/** Sends the reviewer's decision to the deployment, with our webhook URLs again. */
export async function resumeRemote({
  db,
  deployment,
  principal,
  request,
}: {
  db: Db;
  deployment: Deployment;
  principal: Principal;
  request: ResumeRequest;
}) {
  const summary = await getExecutionOrThrow({
    db,
    crew: remoteCrew(deployment.slug),
    id: request.execution_id,
    principal,
  });
  const pending = summary.pending_human_input;
  if (summary.status !== "pending_human_input" || !pending)
    throw errors.conflict(
      `Execution ${summary.id} is not awaiting human input (it is ${summary.status}).`,
      {
        execution_status: summary.status,
      },
    );
  if (pending.task_id !== request.task_id)
    throw errors.conflict(
      `Task '${request.task_id}' is not the task awaiting review; '${pending.task_id}' is.`,
      { awaiting_task_id: pending.task_id },
    );
  const row = await remoteRow(db, summary.id);
  if (!row?.remote_id) throw errors.conflict("This run has not started on the deployment yet.");
  const reply = await ask(deployment, "POST", "/resume", {
    execution_id: row.remote_id,
    task_id: request.task_id,
    human_feedback: request.human_feedback,
    is_approve: request.is_approve,
    // Notifications continue only for URLs given again (the seed's rule): the same ones.
    ...hookUrls(deployment.slug, row.id),
  });
  if (reply.status !== 200) throw remoteFailure("review", reply.status, reply.body);
  const answerStatus = fieldOf(reply.body, "status");
  const answerMessage = fieldOf(reply.body, "message");
  const attempt = typeof pending.attempt === "number" ? pending.attempt : 1;
  await applyRemote(db, row.id, {
    patch: { status: "running", pending_human_input: null },
    remote: { interval_ms: 2_000 },
    events: [
      {
        key: `review_submitted:${request.task_id}:${attempt}`,
        type: "review_submitted",
        task_id: request.task_id,
        attempt,
        data: {
          decision: request.is_approve ? "approve" : "reject",
          feedback: request.human_feedback,
          reviewer: principalName(principal),
        },
      },
    ],
  });
  await pollSoon(db, row.id);
  return {
    status:
      typeof answerStatus === "string" && isOneOf(RESUME_STATUSES, answerStatus)
        ? answerStatus
        : "resumed",
    message: typeof answerMessage === "string" ? answerMessage : "Sent to the deployment.",
  };
}
