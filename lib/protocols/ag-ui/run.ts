import { RunAgentInputSchema as AgUiRunAgentInput, ResumeEntrySchema } from "@ag-ui/core/schemas";
import { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import type { StatusResponse } from "@/lib/contract/status";
import type { CrewDef } from "@/lib/crew/schema";
import type { Db } from "@/lib/db/types";
import { errors } from "@/lib/errors";
import { acquireStreamSlot } from "@/lib/http/rate-limit";
import { sseResponse } from "@/lib/http/sse";
import { isRecord } from "@/lib/util/field";
import { followRun } from "../follow";
import { inputsFromMessage } from "../inputs";
import {
  decideReview,
  decisionFromData,
  decisionFromText,
  readRun,
  startableCrew,
  startRun,
} from "../runs";
import { type AgUiEvent, AgUiTranslator, agUiData, parseInterruptId } from "./events";

// POST /api/ag-ui/{crew}: AG-UI's RunAgentInput in, its events out as Server-Sent Events. A new
// thread starts a run; a run that waits for review ends the AG-UI run with an interrupt, and the
// client's next run answers it (`resume`), continuing the same crew run from where it stopped.

/**
 * AG-UI's RunAgentInput as @ag-ui/core defines it, within the limits a request may set here: ids
 * of a readable length, at most 1,000 messages and 100 resume entries.
 */
export const RunAgentInputSchema = AgUiRunAgentInput.extend({
  threadId: z.string().min(1).max(200),
  runId: z.string().min(1).max(200),
  messages: AgUiRunAgentInput.shape.messages.max(1000),
  resume: z
    .array(ResumeEntrySchema.extend({ interruptId: z.string().min(1) }))
    .max(100)
    .optional(),
});
export type RunAgentInput = z.infer<typeof RunAgentInputSchema>;

type Caller = { db: Db; principal: Principal; slug: string; request: Request };

/** The last user message's words: what a chat sends. */
function lastUserText(input: RunAgentInput): string {
  const last = input.messages.findLast((m) => m.role === "user");
  const content = last?.content;
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .flatMap((p) => (isRecord(p) && typeof p.text === "string" ? [p.text] : []))
      .join("\n");
  return "";
}

/** The inputs: `forwardedProps.inputs` or `state.inputs` when given, else the user's words. */
function inputsOf(crew: CrewDef, input: RunAgentInput) {
  const given = [input.forwardedProps, input.state]
    .map((v) => (isRecord(v) && isRecord(v.inputs) ? v.inputs : undefined))
    .find(Boolean);
  return inputsFromMessage(crew, { ...(given ? { data: given } : {}), text: lastUserText(input) });
}

const LastSeq = z.object({ last_seq: z.coerce.number() });

/** The run's newest event: the new AG-UI run follows on from there. */
async function lastSeq(db: Db, id: string) {
  const { rows } = await db.query("SELECT last_seq FROM executions WHERE id = $1", [id], LastSeq);
  return rows[0]?.last_seq ?? 0;
}

/** Applies the resume entries: each resolved one decides the review its interrupt names. */
async function resumeRun(caller: Caller, input: RunAgentInput) {
  const entries = input.resume ?? [];
  const runs = new Set(entries.map((e) => parseInterruptId(e.interruptId).run));
  if (runs.size !== 1)
    throw errors.badRequest("resume answers the interrupts of one run; these name several.");
  const [id = ""] = runs;
  // Read as this crew's: a run of another crew (or another person's) is the same 404.
  const run = await readRun(caller.db, caller.principal, id, caller.slug);
  const mark = await lastSeq(caller.db, run.kickoff_id);
  let decided = false;
  for (const entry of entries) {
    if (entry.status !== "resolved") continue; // abandoned here: it stays open in the inbox
    const { task, attempt } = parseInterruptId(entry.interruptId);
    const now = await readRun(caller.db, caller.principal, id, caller.slug);
    const open = now.pending_human_inputs.find((r) => r.task_id === task);
    if (!open || open.attempt !== attempt)
      throw errors.conflict(
        `Interrupt ${entry.interruptId} is no longer open: its review was decided (in the inbox, or by another client).`,
      );
    const decision =
      typeof entry.payload === "string"
        ? decisionFromText(entry.payload)
        : decisionFromData(entry.payload);
    await decideReview(caller.db, caller.principal, now, decision, task);
    decided = true;
  }
  return { id: run.kickoff_id, after: mark, decided };
}

/** A new thread's run: the caller must be allowed to start this crew. */
async function newRun(caller: Caller, input: RunAgentInput) {
  const crew = startableCrew(caller.principal, caller.slug);
  const id = await startRun({
    db: caller.db,
    crew,
    principal: caller.principal,
    protocol: "ag-ui",
    inputs: inputsOf(crew, input),
    meta: { ag_ui_thread: input.threadId },
  });
  return { id, after: 0, decided: true };
}

/** Answers one RunAgentInput with the run's AG-UI events. */
export async function runAgUi(caller: Caller, input: RunAgentInput): Promise<Response> {
  const { db, principal } = caller;
  // The stream's slot first: a caller at its limit starts nothing (429).
  const slot = acquireStreamSlot(principal);
  let started: { id: string; after: number; decided: boolean };
  let first: StatusResponse;
  try {
    // An answer to interrupts needs the right to review (decideReview checks it).
    started = input.resume?.length ? await resumeRun(caller, input) : await newRun(caller, input);
    first = await readRun(db, principal, started.id, caller.slug);
  } catch (err) {
    slot();
    throw err;
  }
  const { id, after, decided } = started;
  const ui = new AgUiTranslator(input.threadId, input.runId);
  return sseResponse(
    caller.request,
    principal,
    async ({ send, close }) => {
      const emit = (events: AgUiEvent[]) => {
        for (const e of events) send(agUiData(e));
      };
      emit(ui.start(first));
      const end = (run: StatusResponse) => {
        emit(ui.finish(run));
        close();
      };
      // Nothing was decided (every interrupt abandoned): the run stands as it was.
      if (!decided) {
        end(first);
        return () => {};
      }
      const stop = new AbortController();
      followRun(db, principal, id, {
        after,
        crew: first.crew,
        signal: stop.signal,
        untilWaiting: true,
        onUpdate: ({ run, events }) => emit(events.flatMap((e) => ui.event(e, run.kickoff_id))),
      }).then(end, () => close());
      return () => stop.abort();
    },
    slot,
  );
}
