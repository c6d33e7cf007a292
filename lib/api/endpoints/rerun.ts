import {
  ForkRequestSchema,
  KICKOFF_BODY_LIMIT_BYTES,
  RerunRequestSchema,
  RerunResponseSchema,
  RerunsResponseSchema,
} from "@/lib/contract/crew";
import { endpoint } from "./endpoint";
import { BASE, read, start, unseenExecution } from "./shared";

// Starting a run again with edits, or from a task: Crewdeck's own routes beside the Crew
// Execution Service API's, under the same crew base URL.
const tag = "Crew API";
// Both start a new execution from one the token may see, its body within a kickoff's limit.
const startAgain = {
  method: "POST",
  tag,
  access: start,
  responses: { 200: { description: "Queued.", schema: RerunResponseSchema } },
} as const;
const refusedAgain = {
  400: "Malformed JSON, not an object, or wrong value types.",
  404: "No such crew, or an execution unknown or not visible to this token.",
  413: "Body over 1 MiB.",
};

export const rerun = endpoint({
  ...startAgain,
  path: `${BASE}/executions/{kickoff_id}/rerun`,
  operationId: "rerun",
  summary: "Start an execution again, with some inputs changed or other models",
  description:
    "A new execution of the crew with the origin's inputs, those in `inputs` changed (checked as a kickoff's are), the origin's `meta` unless given, and optionally some agents on other models (`models`). Its `/status` names its `origin`; the origin lists it at `…/reruns`. The crew's current definition runs. A remote deployment's run takes `inputs` only.",
  body: { schema: RerunRequestSchema, limit: KICKOFF_BODY_LIMIT_BYTES },
  problems: {
    ...refusedAgain,
    422: "An input fails its type (`errors` names `inputs.<name>`), a required one is empty, or a model cannot be used: an unknown agent, a model Crewdeck cannot call or whose key is not set, or LLM_OVERRIDE is set (`errors` names `models.<agent>`).",
  },
});

export const fork = endpoint({
  ...startAgain,
  path: `${BASE}/executions/{kickoff_id}/fork`,
  operationId: "fork",
  summary: "Start a new execution at a task, inheriting the tasks before it",
  description:
    "The tasks before `from_task` are taken from this execution — never run again; each has a `task_inherited` event naming the origin and a decision-ledger entry — with one optionally edited first (`edit`, recorded like a reviewer's edit). The origin's inputs and meta; the crew's current definition. A fork starts at a group of async tasks' first task or at the task that joins it, as CrewAI's checkpoints do. For a flow, `from_task` names a method on the run's path: the path before its first run is replayed — each method's output and the state it left, the same listeners set off — and the fork goes on from that method. Not for remote deployments (422).",
  body: { schema: ForkRequestSchema, limit: KICKOFF_BODY_LIMIT_BYTES },
  problems: {
    ...refusedAgain,
    422: "`from_task` missing, unknown, the first task (or method) or inside an async group; a task before it did not complete in the origin; a flow method not on the run's path, or a path the flow as it is now would not take; `edit.task_id` not one it inherits; a remote deployment's run.",
  },
});

export const reruns = endpoint({
  method: "GET",
  path: `${BASE}/executions/{kickoff_id}/reruns`,
  operationId: "reruns",
  tag,
  summary: "The executions started again from this one",
  description:
    "Re-runs (and forks), newest first, each with its status and the inputs whose value differs from this execution's. A user token sees only its own.",
  access: read,
  responses: { 200: { description: "OK", schema: RerunsResponseSchema } },
  problems: unseenExecution,
});
