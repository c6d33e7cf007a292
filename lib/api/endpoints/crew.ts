import { z } from "zod";
import {
  InputsResponseSchema,
  KICKOFF_BODY_LIMIT_BYTES,
  KickoffRequestSchema,
  KickoffResponseSchema,
  ResumeRequestSchema,
  ResumeResponseSchema,
  StopResponseSchema,
} from "@/lib/contract/crew";
import { CrewCatalogResponseSchema, CrewDescriptionSchema } from "@/lib/contract/crew-catalog";
import {
  LedgerQuerySchema,
  LedgerResponseSchema,
  LedgerVerdictSchema,
} from "@/lib/contract/ledger";
import { OpenReviewSchema, ReviewActionSchema } from "@/lib/contract/reviews";
import {
  ArtifactsResponseSchema,
  EventsQuerySchema,
  EventsResponseSchema,
  StatusResponseSchema,
} from "@/lib/contract/status";
import { endpoint } from "./endpoint";
import { BASE, noCrew, read, review, start, unseenExecution } from "./shared";

// The Crew Execution Service API, mounted once per crew: `/api/crews/{crew}` is the base URL a
// CrewAI client is given. Every other method on these paths is a 405 problem (after the token).
const tag = "Crew API";
const noExecution = { 404: "Unknown execution." };
const remote = {
  502: "A remote deployment's crew (`@<deployment>`): the deployment refused our token, failed or could not be reached.",
};
const webhookRefused =
  "Malformed JSON, not an object, wrong value types, meta over 16 KiB, or a webhook URL that is invalid or may not be called (private, loopback, …: see `errors`).";

export const health = endpoint({
  method: "GET",
  path: `${BASE}`,
  operationId: "health",
  tag,
  summary: "Health check",
  access: read,
  responses: {
    200: {
      description: "The crew is healthy (a remote deployment's crew: as healthy as it says).",
      mediaType: "text/plain",
      schema: { type: "string", example: "Healthy" },
    },
  },
  problems: { ...noCrew, ...remote },
});

export const listCrews = endpoint({
  method: "GET",
  path: "/api/crews",
  operationId: "listCrews",
  tag,
  summary: "Every crew and flow served here",
  description:
    "Each crew and CrewAI Flow with its base path, inputs (as `/inputs` gives them), agents with their model, tools and MCP servers, tasks (a flow's methods), a flow's methods and routes, and every warning its files drew at load — the file, the key and its line, and what to do instead. `errors` lists the folders that did not load, and why.",
  access: read,
  responses: { 200: { description: "OK", schema: CrewCatalogResponseSchema } },
  problems: {},
});

export const crewDefinition = endpoint({
  method: "GET",
  path: `${BASE}/definition`,
  operationId: "crewDefinition",
  tag,
  summary: "One crew or flow, as /api/crews describes it",
  description:
    "The crew's description and warnings. The crew's own URL stays CrewAI's health check (`Healthy`).",
  access: read,
  responses: { 200: { description: "OK", schema: CrewDescriptionSchema } },
  problems: { ...noCrew },
});

export const inputs = endpoint({
  method: "GET",
  path: `${BASE}/inputs`,
  operationId: "inputs",
  tag,
  summary: "The inputs the crew requires",
  description:
    "`inputs` lists the names, as CrewAI does. `input_schema` describes them as JSON Schema for building a form: a crew may type its inputs (string, text, number, boolean, enum, date, json) with a description, default and example in its YAML; inputs it does not type are required strings.",
  access: read,
  responses: { 200: { description: "OK", schema: InputsResponseSchema } },
  problems: { ...noCrew, 502: "The remote deployment's /inputs did not answer a list." },
});

export const kickoff = endpoint({
  method: "POST",
  path: `${BASE}/kickoff`,
  operationId: "kickoff",
  tag,
  summary: "Start an execution",
  description:
    'Queues an execution and answers at once with its `kickoff_id`; poll `/status/{kickoff_id}` or follow `/executions/{kickoff_id}/stream`. Unknown inputs are ignored. Typed inputs (see `/inputs`) are checked and converted: numbers and booleans may be sent as strings (`"42"`, `"true"`), dates as `YYYY-MM-DD`, enums must be one of their options, json inputs take JSON text or the value itself (stored as JSON text); a missing optional input takes its default.',
  access: start,
  body: { schema: KickoffRequestSchema, limit: KICKOFF_BODY_LIMIT_BYTES },
  responses: { 200: { description: "Queued.", schema: KickoffResponseSchema } },
  problems: {
    400: webhookRefused,
    ...noCrew,
    413: "Body over 1 MiB.",
    ...remote,
    422: 'Required inputs missing (absent, null or empty), listed in `missing_inputs`; and/or typed inputs with a wrong value, each in `errors` as `{path: "inputs.<name>", message}`.',
  },
});

export const status = endpoint({
  method: "GET",
  path: `${BASE}/status/{kickoff_id}`,
  operationId: "status",
  tag,
  summary: "Execution status, task progress and outputs so far",
  description: "A user token sees only the executions it started.",
  access: read,
  responses: { 200: { description: "OK", schema: StatusResponseSchema } },
  problems: unseenExecution,
});

export const stop = endpoint({
  method: "POST",
  path: `${BASE}/stop/{kickoff_id}`,
  operationId: "stop",
  tag,
  summary: "Stop a queued, running or paused execution",
  access: { action: "stop" },
  responses: { 200: { description: "Stopped.", schema: StopResponseSchema } },
  problems: { ...noExecution, 409: "The execution has already finished.", ...remote },
});

export const resume = endpoint({
  method: "POST",
  path: `${BASE}/resume`,
  operationId: "resume",
  tag,
  summary: "Approve a task awaiting review, or send it back with feedback",
  access: review,
  body: { schema: ResumeRequestSchema },
  responses: { 200: { description: "OK", schema: ResumeResponseSchema } },
  problems: {
    400: "Malformed JSON, a webhook URL that may not be called, or nothing of this task awaits review (the execution is not paused for it), as CrewAI answers.",
    404: "Unknown execution, or the execution has no such task.",
    409: "Someone else decided this review first (`reviewed_by`, `reviewed_at`).",
    413: "Body over 1 MiB.",
    422: "A required field is missing or has the wrong type (`missing_fields`, `errors`).",
    ...remote,
  },
});

export const events = endpoint({
  method: "GET",
  path: `${BASE}/executions/{kickoff_id}/events`,
  operationId: "events",
  tag,
  summary: "The execution's event log",
  description:
    "Events with a sequence number above `after`, oldest first; the sequence has no gaps.",
  access: read,
  query: EventsQuerySchema,
  responses: { 200: { description: "OK", schema: EventsResponseSchema } },
  problems: { 400: "Invalid query.", ...noExecution },
});

export const actOnReview = endpoint({
  method: "POST",
  path: `${BASE}/executions/{kickoff_id}/reviews/{task_id}`,
  operationId: "actOnReview",
  tag,
  summary: "Claim, release or reassign a task's open review",
  description:
    "`claim`: you are reviewing it — others see who holds it and cannot decide it until you release it or the claim runs out (REVIEW_CLAIM_MINUTES). `release`: by the holder or an administrator. `reassign`: give it to other people (e-mail), roles or teams; the claim ends. Each is recorded in the run's log and ledger.",
  access: review,
  body: { schema: ReviewActionSchema },
  responses: { 200: { description: "The review as it now stands.", schema: OpenReviewSchema } },
  problems: {
    400: "Malformed JSON, or an unknown action.",
    403: "Not assigned to you (claim), or not yours to release or reassign.",
    404: "Unknown execution or task.",
    409: "Someone else holds the claim; or the task is not awaiting review.",
    422: "An organization token cannot claim (it is no one); an assignee is not a person, role or team here.",
  },
});

export const artifacts = endpoint({
  method: "GET",
  path: `${BASE}/executions/{kickoff_id}/artifacts`,
  operationId: "artifacts",
  tag,
  summary: "The execution's files",
  description: "The outputs of tasks with `output_file`, one per name, kept with the run.",
  access: read,
  responses: { 200: { description: "OK", schema: ArtifactsResponseSchema } },
  problems: noExecution,
});

export const artifact = endpoint({
  method: "GET",
  path: `${BASE}/executions/{kickoff_id}/artifacts/{name}`,
  operationId: "artifact",
  params: { name: z.string().describe("The file's name; `/` separates its folders.") },
  tag,
  summary: "Download one file",
  description:
    "The file as an attachment, with its content type. `name` may contain `/` (folders).",
  access: read,
  responses: {
    200: {
      description:
        "The file (Content-Disposition: attachment), with the content type it was stored with.",
      mediaType: "*/*",
      schema: { type: "string", format: "binary" },
    },
  },
  problems: { 404: "Unknown execution, or no file of that name." },
});

export const ledger = endpoint({
  method: "GET",
  path: `${BASE}/executions/{kickoff_id}/ledger`,
  operationId: "ledger",
  tag,
  summary: "The execution's decision ledger",
  description:
    "Every review event of the run — request, claim, release, reassignment, decision, reminder, timeout, escalation — as a hash-chained entry, by position: who, when, the hash of the output they saw, what they decided and its effect. With `download=1`, as a file (`<kickoff_id>-ledger.json`) that `npm run audit:verify -- --file` checks without the server.",
  access: read,
  query: LedgerQuerySchema,
  responses: {
    200: {
      description: "OK (with `download=1`, Content-Disposition: attachment).",
      schema: LedgerResponseSchema,
    },
  },
  problems: { 400: "Invalid query.", ...noExecution },
});

export const verifyLedger = endpoint({
  method: "GET",
  path: `${BASE}/executions/{kickoff_id}/ledger/verify`,
  operationId: "verifyLedger",
  tag,
  summary: "Whether the decision ledger is intact",
  description:
    "Recomputes every entry's hash and its link to the one before. `ok: false` names the first entry that does not verify: `hash mismatch` (edited), `broken link` (edited and re-hashed, or out of order) or `gap` (removed). `head_hash` is the last entry's hash: kept elsewhere, it also shows entries cut off the end.",
  access: read,
  responses: { 200: { description: "OK", schema: LedgerVerdictSchema } },
  problems: noExecution,
});

export const stream = endpoint({
  method: "GET",
  path: `${BASE}/executions/{kickoff_id}/stream`,
  operationId: "stream",
  tag,
  summary: "The event log, live, as Server-Sent Events",
  description:
    "Every event after `Last-Event-ID` (or `after`), then each new one as it is written. Each is `event: execution`, `id: <seq>`, `data: <ExecutionEvent as JSON>`; when the execution completes, fails or is stopped an `event: end` follows and the stream closes. A comment is sent every 15 s to keep the connection open; reconnect with `Last-Event-ID` to resume without gaps.",
  access: read,
  parameters: [
    {
      name: "Last-Event-ID",
      in: "header",
      description: "The last `id` received: resume after it (wins over `after`).",
      schema: { type: "integer", minimum: 0 },
    },
    {
      name: "after",
      in: "query",
      description: "Start after this sequence number.",
      schema: { type: "integer", minimum: 0, default: 0 },
    },
  ],
  responses: {
    200: {
      description: "An `text/event-stream` of ExecutionEvent records.",
      mediaType: "text/event-stream",
      schema: {
        type: "string",
        example:
          'retry: 1000\n\nid: 1\nevent: execution\ndata: {"seq":1,"type":"execution_started",…}\n\n',
      },
    },
  },
  problems: {
    ...noExecution,
    429: "Too many open streams for this caller (Retry-After).",
    503: "The server is at its stream limit, shutting down, or its database is unreachable (Retry-After).",
  },
});
