import type { Scorer } from "@/lib/contract/experiments";
import type { CrewDef } from "@/lib/crew/schema";
import { parseStructured } from "@/lib/outputs/structured-output";
import type { TaskState } from "@/lib/run-model/types";
import { testPattern } from "@/lib/util/linear-regex";

// The checks that need no model: each gives a value (1 pass / 0 fail, a 0–1 similarity, a
// number) or null with the reason it could not be scored. Plus what every cell measures: whether
// the run completed, its latency, tokens and cost.

export type Score = { value: number | null; reason?: string };
type MetricKind = "rate" | "score" | "number";
export type Metric = {
  name: string;
  kind: MetricKind;
  better: "higher" | "lower";
  scorer?: Scorer;
};

export type RunOutcome = {
  status: string;
  result: string | null;
  tasks: TaskState[];
  latency_s: number | null;
  tokens: number;
  cost_usd: number | null;
  /** Task id → whether its last guardrail check passed (absent: no guardrail ran). */
  guardrails: Record<string, boolean>;
};

const BUILT_IN: Metric[] = [
  { name: "completed", kind: "rate", better: "higher" },
  { name: "latency_s", kind: "number", better: "lower" },
  { name: "tokens", kind: "number", better: "lower" },
  { name: "cost_usd", kind: "number", better: "lower" },
];

/** Every metric of an experiment, each scorer's named by itself or by its type and task. */
export function metricsOf(scorers: Scorer[]): Metric[] {
  const seen = new Map<string, number>();
  const named = scorers.map((s): Metric => {
    const base = s.name ?? (s.task ? `${s.type}.${s.task}` : s.type);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return { name: n > 1 ? `${base}.${n}` : base, kind: kindOf(s), better: "higher", scorer: s };
  });
  return [...BUILT_IN, ...named];
}

/** Each cell's metrics: the built-in ones and every scorer's but the pairwise judges'. */
export const cellMetrics = (scorers: Scorer[]) =>
  metricsOf(scorers).filter((m) => m.scorer?.type !== "pairwise");

function kindOf(s: Scorer): MetricKind {
  if (s.type === "judge" || s.type === "similarity" || s.type === "pairwise") return "score";
  if (s.type === "length" && s.min === undefined && s.max === undefined) return "number";
  return "rate";
}

export function builtInScores(o: RunOutcome): Record<string, Score> {
  return {
    completed: { value: o.status === "completed" ? 1 : 0, reason: o.status },
    latency_s: { value: o.latency_s },
    tokens: { value: o.tokens },
    cost_usd:
      o.cost_usd === null
        ? { value: null, reason: "no price known for its models" }
        : { value: o.cost_usd },
  };
}

/** The text a scorer reads: the task's output, or the run's final output. */
export function scoredText(o: RunOutcome, task: string | undefined): string | null {
  if (!task) return o.result;
  return o.tasks.find((t) => t.task_id === task)?.output ?? null;
}

const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Word-overlap F1 (as SQuAD scores answers): 1 for the same words, 0 for none shared. */
export function wordF1(answer: string, expected: string): number {
  const a = words(answer);
  const b = words(expected);
  if (!a.length || !b.length) return a.length === b.length ? 1 : 0;
  const counts = new Map<string, number>();
  for (const w of b) counts.set(w, (counts.get(w) ?? 0) + 1);
  let common = 0;
  for (const w of a) {
    const left = counts.get(w) ?? 0;
    if (left > 0) {
      common++;
      counts.set(w, left - 1);
    }
  }
  if (!common) return 0;
  const p = common / a.length;
  const r = common / b.length;
  return Math.round(((2 * p * r) / (p + r)) * 1e6) / 1e6;
}

const pass = (ok: boolean, reason: string): Score => ({ value: ok ? 1 : 0, reason });

/**
 * A deterministic scorer's score of one run; judges are scored elsewhere (judge.ts). A regex
 * runs on a worker thread (lib/util/linear-regex.ts), hence the promise.
 */
export async function checkScore(
  s: Exclude<Scorer, { type: "judge" } | { type: "pairwise" }>,
  o: RunOutcome,
  crew: CrewDef,
  expected: Record<string, string>,
): Promise<Score> {
  const text = scoredText(o, s.task);
  if (text === null)
    return {
      value: null,
      reason: s.task ? `task '${s.task}' has no output` : "the run has no output",
    };
  const want = expected[s.task ?? crew.tasks.at(-1)?.id ?? ""];
  switch (s.type) {
    case "contains":
      return pass(
        text.includes(s.value),
        text.includes(s.value) ? "contains it" : "does not contain it",
      );
    case "regex": {
      // Checked at save, but one saved before RE2 (or too slow on this text) is not scored.
      const run = await testPattern(s.pattern, s.flags ?? "", text);
      if (run.error !== undefined) return { value: null, reason: `not scored: ${run.error}` };
      return pass(run.matched, run.matched ? "matches" : "does not match");
    }
    case "equals": {
      const value = s.value ?? want;
      if (value === undefined) return { value: null, reason: "the row has no expected output" };
      const same = text.trim() === value.trim();
      return pass(same, same ? "equal" : "differs");
    }
    case "similarity":
      if (want === undefined) return { value: null, reason: "the row has no expected output" };
      return { value: wordF1(text, want), reason: "word overlap (F1) with the expected output" };
    case "length": {
      const n = s.unit === "characters" ? text.length : words(text).length;
      if (s.min === undefined && s.max === undefined) return { value: n, reason: `${n} ${s.unit}` };
      const ok = (s.min === undefined || n >= s.min) && (s.max === undefined || n <= s.max);
      return pass(ok, `${n} ${s.unit}`);
    }
    case "json_schema": {
      const schema = crew.tasks.find(
        (t) => t.id === (s.task ?? crew.tasks.at(-1)?.id),
      )?.output_json;
      if (!schema) return { value: null, reason: "the task has no output_json schema" };
      const parsed = parseStructured(text, schema);
      return parsed.ok ? pass(true, "valid") : pass(false, parsed.errors.join("; "));
    }
    case "guardrail": {
      const id = s.task ?? crew.tasks.at(-1)?.id ?? "";
      const passed = o.guardrails[id];
      if (passed === undefined) return { value: null, reason: "no guardrail ran on the task" };
      return pass(passed, passed ? "its last check passed" : "its last check failed");
    }
  }
}
