import { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import { can } from "@/lib/auth/roles";
import { env } from "@/lib/config/env";
import { KickoffRequestSchema } from "@/lib/contract/crew";
import type { StatusResponse } from "@/lib/contract/status";
import { crewCatalog } from "@/lib/crew/registry";
import type { CrewDef } from "@/lib/crew/schema";
import type { Db } from "@/lib/db/types";
import { AppError, errors, zodFieldErrors } from "@/lib/errors";
import { PROTOCOL_NAMES } from "@/lib/format/protocol";
import { resumeExecution } from "@/lib/reviews/resume-execution";
import { loadModelPrices } from "@/lib/run-model/pricing";
import { TERMINAL } from "@/lib/run-model/states";
import type { ProtocolPush } from "@/lib/run-model/types";
import { createExecution } from "@/lib/runs/create-execution";
import { getExecutionOrThrow } from "@/lib/runs/get-execution";
import { toStatusResponse } from "@/lib/runs/status-view";
import { stopExecution } from "@/lib/runs/stop-execution";
import { reviewSentence } from "./review-sentence";

// What the three agent protocols (MCP, A2A, AG-UI) share: every one starts a crew's run as the
// HTTP API's kickoff does, reads it as /status does and decides its reviews as /resume does, so a
// token, a role and a review mean the same whichever door a caller came in by.

export type Protocol = keyof typeof PROTOCOL_NAMES;

/** 404 while the protocol is switched off (AGENT_PROTOCOLS): nothing answers there. */
export function assertProtocolOn(protocol: Protocol) {
  const on = env().AGENT_PROTOCOLS;
  if (!on.includes(protocol))
    throw errors.notFound(
      `The ${PROTOCOL_NAMES[protocol]} endpoint is switched off here (AGENT_PROTOCOLS=${on.join(",") || "none"}).`,
    );
}

/** The crews and flows this caller may start: none for a viewer (it sees no tool it cannot use). */
export function startableCrews(principal: Principal): CrewDef[] {
  if (!can(principal, "start")) return [];
  return [...crewCatalog().crews.values()];
}

/** A crew this caller may start, or the same 404 for one that does not exist and one it may not. */
export function startableCrew(principal: Principal, slug: string): CrewDef {
  const crew = startableCrews(principal).find((c) => c.slug === slug);
  if (!crew) throw errors.notFound(`No crew named '${slug}' that you may start.`);
  return crew;
}

/** Starts a run as POST /kickoff does, noting in `meta.protocol` which protocol asked. */
export async function startRun(args: {
  db: Db;
  crew: CrewDef;
  principal: Principal;
  protocol: Protocol;
  inputs: Record<string, unknown>;
  meta?: Record<string, unknown>;
  /** A2A push notification endpoints the run's updates go to. */
  pushes?: ProtocolPush[];
}): Promise<string> {
  const parsed = KickoffRequestSchema.safeParse({
    inputs: args.inputs,
    meta: { ...args.meta, protocol: args.protocol },
  });
  if (!parsed.success)
    throw errors.badRequest("The inputs are invalid.", zodFieldErrors(parsed.error));
  return createExecution({
    db: args.db,
    crew: args.crew,
    principal: args.principal,
    request: parsed.data,
    ...(args.pushes ? { pushes: args.pushes } : {}),
  });
}

const CrewOf = z.object({ crew: z.string() });
const UUID = z.uuid(); // made once: building a schema costs more than checking with it

/**
 * A run this caller may see. Protocols name runs by id alone: the crew is looked up, unless the
 * caller already knows it (a crew's own endpoint), which saves the query.
 */
export async function readRun(
  db: Db,
  principal: Principal,
  id: string,
  knownCrew?: string,
): Promise<StatusResponse> {
  if (!UUID.safeParse(id).success) throw errors.notFound(`No run '${id}'.`);
  const crew = knownCrew ?? (await crewOf(db, id));
  if (!crew) throw errors.notFound(`No run '${id}'.`);
  // The same 404 whoever's run it is: the message must not name the crew of another's run.
  const row = await getExecutionOrThrow({ db, crew, id, principal }).catch((err) => {
    throw err instanceof AppError && err.status === 404 ? errors.notFound(`No run '${id}'.`) : err;
  });
  return toStatusResponse(row, await loadModelPrices(db));
}

async function crewOf(db: Db, id: string) {
  const { rows } = await db.query(
    "SELECT crew FROM executions WHERE id = $1",
    [id.toLowerCase()],
    CrewOf,
  );
  return rows[0]?.crew;
}

export const isFinished = (run: Pick<StatusResponse, "status">) => TERMINAL.has(run.status);

/** The review a run waits on, as one sentence a protocol's status message can carry. */
export function reviewMessage(run: StatusResponse): string | null {
  const review = run.pending_human_inputs[0];
  return review ? reviewSentence(review) : null;
}

/** What a finished run answers: its result, or why it did not complete. */
export function runAnswer(run: StatusResponse): string {
  if (run.status === "completed") return run.result ?? "";
  if (run.status === "cancelled") return `The run was stopped: ${run.result ?? run.error ?? ""}`;
  return `The run failed: ${run.error ?? run.result ?? "unknown error"}`;
}

/** A person's decision on the review a run waits on, however the protocol carried it. */
export type Decision = {
  approve: boolean;
  feedback: string;
  editedOutput?: string;
  /** A flow's human feedback: the outcome to route to (one of the method's `emit`). */
  outcome?: string;
};

const APPROVALS = new Set(["", "approve", "approved", "yes", "y", "ok", "okay", "lgtm", "accept"]);

/**
 * A reply in words, read as CrewAI reads a human_input answer: nothing (or a plain "approve")
 * accepts the output; anything else is feedback the task runs again with.
 */
export function decisionFromText(text: string): Decision {
  const said = text.trim();
  const word = said.toLowerCase().replace(/[.!]+$/, "");
  return APPROVALS.has(word)
    ? { approve: true, feedback: said }
    : { approve: false, feedback: said };
}

const DecisionSchema = z
  .object({
    is_approve: z.boolean().optional(),
    approved: z.boolean().optional(),
    human_feedback: z.string().max(100_000).optional(),
    feedback: z.string().max(100_000).optional(),
    edited_output: z.string().max(1_000_000).optional(),
    outcome: z.string().min(1).max(200).optional(),
  })
  .refine((d) => d.is_approve !== undefined || d.approved !== undefined, {
    message: "a decision says is_approve (or approved): true or false",
  });

/** A decision given as data: the /resume body's names, or `approved`/`feedback`. */
export function decisionFromData(data: unknown): Decision {
  const parsed = DecisionSchema.safeParse(data);
  if (!parsed.success)
    throw errors.badRequest("The decision is invalid.", zodFieldErrors(parsed.error));
  const d = parsed.data;
  return {
    approve: (d.is_approve ?? d.approved) === true,
    feedback: d.human_feedback ?? d.feedback ?? "",
    ...(d.edited_output !== undefined ? { editedOutput: d.edited_output } : {}),
    ...(d.outcome !== undefined ? { outcome: d.outcome } : {}),
  };
}

/**
 * Decides a review `run` waits on (task `taskId`'s, by default the first), as POST /resume would
 * for this caller: only a caller allowed to review may (403 otherwise); the same rules
 * (assignees, quorum, claims) hold. Tool calls awaiting approval are all approved, or all
 * refused, together (as /resume without call_id).
 */
export async function decideReview(
  db: Db,
  principal: Principal,
  run: StatusResponse,
  decision: Decision,
  taskId = run.pending_human_inputs[0]?.task_id,
) {
  if (!can(principal, "review"))
    throw new AppError(
      "forbidden",
      403,
      "Your role does not allow deciding reviews (review); the run waits for a reviewer in the inbox.",
    );
  const review = run.pending_human_inputs.find((r) => r.task_id === taskId);
  if (!review)
    throw errors.conflict(`Run ${run.kickoff_id} is not waiting for a review of '${taskId}'.`);
  await resumeExecution({
    db,
    crew: run.crew,
    principal,
    request: {
      execution_id: run.kickoff_id,
      task_id: review.task_id,
      human_feedback: decision.feedback,
      is_approve: decision.approve,
      ...(decision.editedOutput !== undefined ? { edited_output: decision.editedOutput } : {}),
      ...(decision.outcome !== undefined ? { outcome: decision.outcome } : {}),
    },
  });
}

/** Stops a run as POST /stop does (an operator's right); a finished run is a 409. */
export async function cancelRun(db: Db, principal: Principal, run: StatusResponse) {
  if (!can(principal, "stop"))
    throw new AppError("forbidden", 403, "Your role does not allow stopping runs (stop).");
  await stopExecution({ db, crew: run.crew, id: run.kickoff_id, principal });
}

/** A crew the caller may read (its card, its endpoint); the same 404 for one it may not. */
export function readableCrew(principal: Principal, slug: string): CrewDef {
  const crew = can(principal, "read") ? crewCatalog().crews.get(slug) : undefined;
  if (!crew) throw errors.notFound(`No crew named '${slug}'.`);
  return crew;
}

const ListedRow = z.object({ id: z.string(), crew: z.string() });
const CountRow = z.object({ n: z.coerce.number() });

// Counting every match would make each page as slow as the history is long: past this many, the
// total says this many and pages end there (as the runs list counts, lib/runs/list-executions.ts).
const LISTED_CAP = 10_000;

/** A page token or cursor this module gave out: a number of runs to skip, at most 9 digits. */
export const PAGE_TOKEN = /^\d{0,9}$/;

/**
 * The runs a protocol started that this caller may see, newest first: a page of them (id and
 * crew, so each reads without a lookup) and how many there are in all, up to LISTED_CAP. A
 * person's token lists its own runs; the others, every one.
 */
export async function protocolRuns(
  db: Db,
  principal: Principal,
  protocol: Protocol,
  filter: { crew?: string; context?: string; status?: string; offset: number; limit: number },
) {
  const owner = principal.kind === "user" ? principal.userId : null;
  const where = `FROM executions
     WHERE meta ? 'protocol' AND meta->>'protocol' = $1 AND ($2::uuid IS NULL OR owner_user_id = $2)
       AND ($3::text IS NULL OR crew = $3) AND ($4::text IS NULL OR meta->>'a2a_context' = $4)
       AND ($5::text IS NULL OR status = $5)`;
  const params = [
    protocol,
    owner,
    filter.crew ?? null,
    filter.context ?? null,
    filter.status ?? null,
  ];
  const { rows: counted } = await db.query(
    `SELECT count(*)::int AS n FROM (SELECT 1 ${where} LIMIT ${LISTED_CAP}) matches`,
    params,
    CountRow,
  );
  const total = counted[0]?.n ?? 0;
  const limit = Math.max(0, Math.min(filter.limit, total - filter.offset));
  if (!limit) return { runs: [], total };
  const { rows } = await db.query(
    `SELECT id, crew ${where} ORDER BY created_at DESC, id DESC LIMIT $6 OFFSET $7`,
    [...params, limit, filter.offset],
    ListedRow,
  );
  return { runs: rows, total };
}
