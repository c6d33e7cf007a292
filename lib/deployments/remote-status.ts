import { z } from "zod";
import { EXECUTION_STATUSES, type ExecutionStatus } from "@/lib/contract/states";
import { isOneOf } from "@/lib/util/one-of";

// Reads the /status body of a remote deployment — another Crewdeck or a CrewAI-style one — into
// one shape for the dashboard. Remote bodies are not ours to trust: every field is optional and
// a field of the wrong type is dropped rather than failing the whole body.

type RemoteState = ExecutionStatus;
export type RemoteTask = {
  task_id: string;
  name: string | null;
  status: string | null;
  output: string | null;
  /** How many attempts the remote counts (Crewdeck does; CrewAI does not: null). */
  attempts: number | null;
};
export type RemoteStatus = {
  /** null: the shape is not understood, and the UI shows `raw` instead */
  state: RemoteState | null;
  result: string | null;
  error: string | null;
  tasks: RemoteTask[];
  pending: { task_id: string; output: string | null; attempt: number | null } | null;
  last_step: { type: string | null; text: string | null } | null;
  raw: unknown;
};

// CrewAI's `state` (Celery-like, upper case) and the looser `status` words seen in the wild,
// compared in lower case.
const ALIASES: Record<string, RemoteState> = {
  queued: "queued",
  pending: "queued",
  started: "running",
  running: "running",
  pending_human_input: "pending_human_input",
  paused: "pending_human_input",
  waiting_for_feedback: "pending_human_input",
  success: "completed",
  completed: "completed",
  failed: "error",
  failure: "error",
  error: "error",
  revoked: "cancelled",
  cancelled: "cancelled",
  canceled: "cancelled",
};

// `.catch` turns a wrong type into "absent", so one odd field never hides the rest.
const text = z.string().optional().catch(undefined);
const entry = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

const TaskEntry = z.object({
  task_id: text,
  name: text,
  status: text,
  output: text,
  raw: text,
  summary: text,
  attempts: entry(z.number().int().min(0)),
});
type TaskEntry = z.infer<typeof TaskEntry>;
const TaskList = entry(z.array(entry(TaskEntry)));

const Step = z.object({
  type: text,
  text: text,
  thought: text,
  output: text,
  result: text,
  log: text,
  tool: text,
});

const ResultObject = z.object({ output: text, raw: text, tasks: TaskList, tasks_output: TaskList });

const StatusBody = z.object({
  status: text,
  state: text,
  result: z.unknown().optional(),
  error: entry(z.union([z.string(), z.object({ message: z.string() })])),
  message: text,
  tasks: TaskList,
  pending_human_input: entry(
    z.object({
      task_id: z.string(),
      output: text,
      attempt: entry(z.number()),
    }),
  ),
  last_step: entry(Step),
  last_executed_task: entry(TaskEntry),
});
type StatusBody = z.infer<typeof StatusBody>;

export function readRemoteStatus(body: unknown): RemoteStatus {
  const parsed = StatusBody.safeParse(body);
  if (!parsed.success) return unknownShape(body);
  const b = parsed.data;
  const state = readState(b.status, b.state);
  if (state === null) return unknownShape(body);

  const resultObject = ResultObject.safeParse(b.result);
  const tasks = readTasks(b, resultObject.success ? resultObject.data : null);
  return {
    state,
    result: readResult(b.result),
    error: readError(b, state),
    tasks,
    pending: readPending(b, state, tasks),
    last_step: readLastStep(b),
    raw: body,
  };
}

function unknownShape(raw: unknown): RemoteStatus {
  return {
    state: null,
    result: null,
    error: null,
    tasks: [],
    pending: null,
    last_step: null,
    raw,
  };
}

const lower = (s: string | undefined) => s?.trim().toLowerCase();

// Crewdeck's own `status` wins; otherwise CrewAI's `state`, then a looser `status` word.
function readState(status: string | undefined, state: string | undefined): RemoteState | null {
  const s = lower(status);
  if (s !== undefined && isOneOf(EXECUTION_STATUSES, s)) return s;
  for (const word of [lower(state), s]) {
    if (word !== undefined && Object.hasOwn(ALIASES, word)) return ALIASES[word] ?? null;
  }
  return null;
}

function readResult(result: unknown): string | null {
  if (result === undefined || result === null) return null;
  if (typeof result === "string") return result;
  const obj = ResultObject.safeParse(result);
  if (obj.success && (obj.data.output ?? obj.data.raw) !== undefined) {
    return obj.data.output ?? obj.data.raw ?? null;
  }
  // A structured result with no text field (json_dict, pydantic…) is still worth showing.
  return stringify(result);
}

function stringify(value: unknown): string | null {
  try {
    const json = JSON.stringify(value);
    return json === undefined || json === "{}" || json === "[]" ? null : json;
  } catch {
    return null; // BigInt or a cycle: not JSON, nothing to show
  }
}

function readError(b: StatusBody, state: RemoteState): string | null {
  if (typeof b.error === "string") return b.error;
  if (b.error) return b.error.message;
  // CrewAI puts the reason in `message` on failure; elsewhere `message` is just chatter.
  return state === "error" ? (b.message ?? null) : null;
}

const taskOutput = (t: TaskEntry) => t.output ?? t.raw ?? t.summary ?? null;

// The body's own task list first (Crewdeck: every task, with status); else the tasks of a
// finished CrewAI result, which are done by definition; else CrewAI's last executed task.
function readTasks(b: StatusBody, result: z.infer<typeof ResultObject> | null): RemoteTask[] {
  const toTasks = (list: (TaskEntry | undefined)[], doneStatus: string | null) =>
    list.flatMap((t, i) =>
      t
        ? [
            {
              task_id: t.task_id ?? t.name ?? `task-${i + 1}`,
              name: t.name ?? null,
              status: t.status ?? doneStatus,
              output: taskOutput(t),
              attempts: t.attempts ?? null,
            },
          ]
        : [],
    );
  if (b.tasks?.length) return toTasks(b.tasks, null);
  const fromResult = result?.tasks ?? result?.tasks_output;
  if (fromResult?.length) return toTasks(fromResult, "completed");
  if (b.last_executed_task) return toTasks([b.last_executed_task], "completed");
  return [];
}

// Crewdeck names the task awaiting review; a CrewAI-style body that says it is paused does not,
// so the latest task with an output is the best guess at what awaits review.
function readPending(b: StatusBody, state: RemoteState, tasks: RemoteTask[]) {
  const p = b.pending_human_input;
  if (p) return { task_id: p.task_id, output: p.output ?? null, attempt: p.attempt ?? null };
  if (state !== "pending_human_input") return null;
  const last = tasks.findLast((t) => t.output !== null);
  return last ? { task_id: last.task_id, output: last.output, attempt: null } : null;
}

function readLastStep(b: StatusBody): RemoteStatus["last_step"] {
  const s = b.last_step;
  if (s) {
    const type = s.type ?? null;
    const stepText = s.text ?? s.thought ?? s.output ?? s.result ?? s.log ?? s.tool ?? null;
    if (type !== null || stepText !== null) return { type, text: stepText };
  }
  const t = b.last_executed_task;
  if (t) return { type: "task", text: taskOutput(t) };
  return null;
}

const ERROR_LIMIT = 300;

const ErrorBody = z.object({
  error: entry(z.union([z.string(), z.object({ message: z.string() })])),
  message: text,
  title: text,
  detail: entry(z.union([z.string(), z.array(entry(z.object({ msg: z.string() })))])),
});

/** A readable one-line reason from an error response: `{error, message}`, RFC 9457 problem `{title, detail}`, `{detail}`, a plain string body, else "HTTP <status>". Bounded to 300 chars. */
export function readRemoteError(status: number, body: unknown): string {
  return bound(reasonOf(body) ?? `HTTP ${status}`);
}

function reasonOf(body: unknown): string | null {
  if (typeof body === "string") {
    // A JSON error read as text (wrong content type) still deserves its fields.
    const json = parseJson(body);
    if (typeof json === "object" && json !== null) return reasonOf(json);
    // A proxy's HTML error page says less than the status code does.
    if (body.trimStart().startsWith("<")) return null;
    return body.trim() || null;
  }
  const parsed = ErrorBody.safeParse(body);
  if (!parsed.success) return null;
  const { error, message, title, detail } = parsed.data;
  const headline = typeof error === "string" ? error : (error?.message ?? title);
  // FastAPI (CrewAI's stack) sends validation failures as `detail: [{msg, loc, …}]`.
  const explanation =
    message ??
    (typeof detail === "string"
      ? detail
      : detail
          ?.flatMap((d) => (d ? [d.msg] : []))
          .join("; ")
          .trim() || undefined);
  return join(headline, explanation);
}

function join(headline: string | undefined, explanation: string | undefined): string | null {
  const parts = [headline, explanation].filter((p): p is string => Boolean(p?.trim()));
  if (parts.length === 2 && parts[0] === parts[1]) parts.pop();
  return parts.length ? parts.join(": ") : null;
}

function parseJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

function bound(reason: string): string {
  const line = reason.replace(/\s+/g, " ").trim();
  return line.length <= ERROR_LIMIT ? line : `${line.slice(0, ERROR_LIMIT - 1)}…`;
}
