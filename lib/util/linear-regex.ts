import { Worker } from "node:worker_threads";
import { z } from "zod";

// Patterns a caller sends (an experiment's regex scorer) run on RE2JS, a pure-JavaScript port
// of RE2 (no native build): it never backtracks, so (a+)+b costs time linear in the text, not the
// exponential time RegExp takes. Linear is not cheap in JavaScript, though: a hostile pattern can
// cost microseconds per compiled step per character, and compiling 1,000 characters of repeats
// seconds. So it all runs on a worker thread, one job at a time, each within a deadline: the event
// loop never waits on a pattern, and a job past its deadline ends the worker (the next starts one).

/** The longest pattern accepted, in characters (the API's limit too). */
const PATTERN_MAX_LENGTH = 1000;
/** The largest compiled pattern, in RE2 steps (instructions): `[ab]{500}` is about 500. */
const PATTERN_MAX_STEPS = 2000;
/** The longest text a pattern is run on, in characters. */
const TEXT_MAX_LENGTH = 100_000;
/** How long one compile or match may take on the worker thread. */
const DEADLINE_MS = 1000;

// u changes nothing: RE2 always reads code points. g, y, d have no meaning for a yes/no match.
const FLAGS = new Set(["i", "m", "s", "u"]);
const ENGINE = "which RE2, the linear-time engine patterns run on, does not support";

/**
 * The first construct RE2 cannot run, said plainly: backreferences and lookarounds need
 * backtracking. Read before translating, since RE2JS's translation reads `\k<n>` as `k<n>`.
 */
export function unsupported(pattern: string): string | undefined {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    const next = pattern[i + 1] ?? "";
    if (c === "\\") {
      if (!inClass && next >= "1" && next <= "9")
        return `uses a backreference (\\${next}), ${ENGINE}`;
      if (!inClass && next === "k" && pattern[i + 2] === "<")
        return `uses a backreference (\\k<…>), ${ENGINE}`;
      i++;
    } else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(" && next === "?") {
      const head = pattern.slice(i, i + 4);
      if (head.startsWith("(?=") || head.startsWith("(?!"))
        return `uses a lookahead (${head.slice(0, 3)}…), ${ENGINE}`;
      if (head === "(?<=" || head === "(?<!") return `uses a lookbehind (${head}…), ${ENGINE}`;
    }
  }
  return undefined;
}

/** What the caller wrote wrong, found without compiling: length, flags, RE2's missing features. */
function precheck(pattern: string, flags: string): string | undefined {
  if (pattern.length > PATTERN_MAX_LENGTH)
    return `is ${pattern.length} characters; at most ${PATTERN_MAX_LENGTH}`;
  const bad = [...flags].find((f) => !FLAGS.has(f));
  if (bad) return `has flag '${bad}', which is not supported (i, m, s and u are)`;
  return unsupported(pattern);
}

// The worker's code: CommonJS, so `require` finds re2js from the working directory (the
// project's, as for every package the server loads). Compiled patterns are kept for the next job.
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const { RE2JS } = require("re2js");
const FLAGS = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL, u: 0 };
const cache = new Map();
function compile(pattern, flags) {
  const key = flags + "/" + pattern;
  let hit = cache.get(key);
  if (hit) return hit;
  try {
    let bits = 0;
    for (const f of flags) bits |= FLAGS[f];
    const re = RE2JS.compile(RE2JS.translateRegExp(pattern), bits);
    hit = { re, steps: re.programSize() };
  } catch (err) {
    hit = { error: String(err && err.message ? err.message : err) };
  }
  if (cache.size >= 64) cache.delete(cache.keys().next().value);
  cache.set(key, hit);
  return hit;
}
parentPort.on("message", ({ id, pattern, flags, text }) => {
  const c = compile(pattern, flags);
  if (c.error !== undefined) parentPort.postMessage({ id, invalid: c.error });
  else if (text === undefined || c.steps > workerData.maxSteps) parentPort.postMessage({ id, steps: c.steps });
  else parentPort.postMessage({ id, steps: c.steps, matched: c.re.test(text) });
});
parentPort.postMessage({ ready: true });
`;

const Ready = z.object({ ready: z.literal(true) });
const Reply = z.union([
  z.object({ id: z.number(), invalid: z.string() }),
  z.object({ id: z.number(), steps: z.number(), matched: z.boolean().optional() }),
]);
type Outcome =
  | { kind: "compiled"; steps: number; matched?: boolean }
  | { kind: "invalid"; message: string }
  | { kind: "late" }
  | { kind: "failed"; message: string };
type Job = {
  id: number;
  pattern: string;
  flags: string;
  text?: string;
  deadlineMs: number;
  done: (o: Outcome) => void;
};

const queue: Job[] = [];
// A job's deadline runs from when the worker has it: a worker starting (its engine loading, on a
// busy machine for long) spends none of it.
let running: { job: Job; timer?: NodeJS.Timeout; since?: number } | undefined;
let worker: Worker | undefined;
let workerReady = false;
let ids = 0;

function startWorker(): Worker {
  const w = new Worker(WORKER, { eval: true, workerData: { maxSteps: PATTERN_MAX_STEPS } });
  w.unref(); // an idle worker keeps no process alive; a running job's deadline timer does
  // A worker given up on (late, crashed) may still speak: only the current one is heard.
  w.on("message", (m: unknown) => {
    if (w === worker && Ready.safeParse(m).success) {
      workerReady = true;
      if (running) dispatch(w, running.job);
      return;
    }
    const reply = Reply.safeParse(m);
    if (w !== worker || !reply.success || reply.data.id !== running?.job.id) return;
    const r = reply.data;
    // An answer that comes in after the deadline is late too: a busy event loop may hear it
    // before the deadline's timer, however long the job took.
    if (performance.now() - (running.since ?? 0) > running.job.deadlineMs) finish({ kind: "late" });
    else
      finish("invalid" in r ? { kind: "invalid", message: r.invalid } : { kind: "compiled", ...r });
  });
  const lost = (message: string) => {
    if (w !== worker) return;
    worker = undefined;
    finish({ kind: "failed", message });
  };
  w.on("error", (err) => lost(err.message));
  w.on("exit", (code) => lost(`the pattern engine stopped (exit code ${code})`));
  return w;
}

function next() {
  const job = running ? undefined : queue.shift();
  if (!job) return;
  running = { job };
  if (!worker) {
    worker = startWorker();
    workerReady = false;
  }
  if (workerReady) dispatch(worker, job); // else when it says it is ready
}

/** Hands the job to the worker, its deadline running from now. */
function dispatch(w: Worker, job: Job) {
  if (running?.job !== job) return;
  running.since = performance.now();
  running.timer = setTimeout(() => {
    worker = undefined;
    void w.terminate();
    finish({ kind: "late" });
  }, job.deadlineMs);
  w.postMessage({ id: job.id, pattern: job.pattern, flags: job.flags, text: job.text });
}

function finish(outcome: Outcome) {
  const current = running;
  if (!current) return;
  running = undefined;
  clearTimeout(current.timer);
  current.job.done(outcome);
  next();
}

function run(pattern: string, flags: string, text: string | undefined, deadlineMs: number) {
  return new Promise<Outcome>((done) => {
    queue.push({ id: ++ids, pattern, flags, text, deadlineMs, done });
    next();
  });
}

/** Why the engine did not answer, to follow "the pattern"; undefined when it did. */
function trouble(o: Outcome, late: string): string | undefined {
  switch (o.kind) {
    case "invalid":
      return `is not a pattern RE2 reads: ${o.message.replace(/^error parsing regexp: /, "")}`;
    case "late":
      return late;
    case "failed":
      return `could not run: the pattern engine failed (${o.message})`;
    case "compiled":
      return o.steps > PATTERN_MAX_STEPS
        ? `compiles to ${o.steps} steps; at most ${PATTERN_MAX_STEPS} (repeat less)`
        : undefined;
  }
}

type Options = { deadlineMs?: number };

/**
 * Whether RE2 can run the pattern: undefined, or why not, to follow the field's name ("… is not
 * a pattern RE2 reads: missing closing )"). Throws only when the engine itself fails (our bug).
 */
export async function checkPattern(pattern: string, flags = "", opts: Options = {}) {
  const wrong = precheck(pattern, flags);
  if (wrong) return wrong;
  const deadlineMs = opts.deadlineMs ?? DEADLINE_MS;
  const outcome = await run(pattern, flags, undefined, deadlineMs);
  if (outcome.kind === "failed") throw new Error(`The pattern engine failed: ${outcome.message}`);
  return trouble(outcome, `took longer than ${deadlineMs} ms to compile (make it smaller)`);
}

/** Whether the pattern matches anywhere in `text`, or why it was not run. */
export async function testPattern(
  pattern: string,
  flags: string,
  text: string,
  opts: Options = {},
): Promise<{ matched: boolean; error?: undefined } | { error: string }> {
  const wrong = precheck(pattern, flags);
  if (wrong) return { error: `the pattern ${wrong}` };
  if (text.length > TEXT_MAX_LENGTH)
    return {
      error: `the text is ${text.length.toLocaleString("en")} characters; a pattern reads at most ${TEXT_MAX_LENGTH.toLocaleString("en")}`,
    };
  const deadlineMs = opts.deadlineMs ?? DEADLINE_MS;
  const outcome = await run(pattern, flags, text, deadlineMs);
  const why = trouble(outcome, `took longer than ${deadlineMs} ms on this text, its deadline`);
  if (why) return { error: `the pattern ${why}` };
  return { matched: outcome.kind === "compiled" && outcome.matched === true };
}
