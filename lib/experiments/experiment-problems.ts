import { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import { can } from "@/lib/auth/roles";
import type { VariantChanges } from "@/lib/contract/datasets";
import type { ExperimentCreate, Scorer } from "@/lib/contract/experiments";
import type { CrewDef } from "@/lib/crew/schema";
import { AppError, errors } from "@/lib/errors";
import { parseModelRef } from "@/lib/llm/model-ref";
import { checkPattern } from "@/lib/util/linear-regex";
import { applyChanges } from "./overlay";
import { cellMetrics } from "./scorers";

// What a request for an experiment gets wrong, each problem at the field that has it, and the
// one refusal that lists them all.

export type Problem = { path: string; message: string };
const Problems = z.array(z.object({ path: z.string(), message: z.string() }));
const MAX_CELLS = 10_000;

/** Every scorer's task, pattern, model and compared variants. */
export async function checkScorers(crew: CrewDef, scorers: Scorer[], variants: string[]) {
  const problems: Problem[] = [];
  const tasks = crew.tasks.map((t) => t.id);
  for (const [i, s] of scorers.entries()) {
    const at = `scorers.${i}`;
    if (s.task && !tasks.includes(s.task))
      problems.push({
        path: `${at}.task`,
        message: `no task '${s.task}' (tasks: ${tasks.join(", ")})`,
      });
    if (s.type === "regex") {
      // Compiled on the linear-time engine's worker thread, as it will run.
      const wrong = await checkPattern(s.pattern, s.flags);
      if (wrong) problems.push({ path: `${at}.pattern`, message: wrong });
    }
    if (s.type === "judge" || s.type === "pairwise") {
      const { error } = parseModelRef(s.model);
      if (error) problems.push({ path: `${at}.model`, message: error });
    }
    if (s.type === "pairwise")
      for (const v of s.variants)
        if (!variants.includes(v))
          problems.push({
            path: `${at}.variants`,
            message: `'${v}' is not one of the experiment's variants`,
          });
  }
  return problems;
}

/** applyChanges, its refusal naming the field in the request (`variants.1.changes.…`). */
export function changesAt(crew: CrewDef, changes: VariantChanges, at: string) {
  try {
    return applyChanges(crew, changes);
  } catch (err) {
    const listed = err instanceof AppError ? Problems.safeParse(err.details.errors) : undefined;
    if (!listed?.success) throw err;
    throw unfit(listed.data.map((p) => ({ ...p, path: `${at}.${p.path}` })));
  }
}

export function unfit(problems: Problem[]) {
  return errors.unprocessable(
    `The experiment cannot run: ${problems
      .slice(0, 10)
      .map((p) => `${p.path}: ${p.message}`)
      .join("; ")}${problems.length > 10 ? `; and ${problems.length - 10} more` : ""}.`,
    { errors: problems },
  );
}

/**
 * Skipping reviews and tool approvals lets side effects through that a reviewer would gate:
 * only someone who may review (and so could approve them anyway) may run an experiment so.
 */
export function assertMayRun(principal: Principal, reviews: ExperimentCreate["reviews"]) {
  if (reviews === "skip" && !can(principal, "review"))
    throw new AppError(
      "forbidden",
      403,
      'An experiment that skips reviews and tool approvals needs the reviewer role: set "reviews": "wait" to run it with them, as any run.',
    );
}

/** What the request gets wrong beyond its scorers: the baseline, the gates, the size. */
export function planProblems({
  baseline,
  names,
  scorers,
  gates,
  cells,
}: {
  baseline: string;
  names: string[];
  scorers: Scorer[];
  gates: ExperimentCreate["gates"];
  cells: number;
}): Problem[] {
  const problems: Problem[] = [];
  if (!names.includes(baseline))
    problems.push({
      path: "baseline",
      message: `'${baseline}' is not one of the variants (${names.join(", ")})`,
    });
  const metrics = cellMetrics(scorers).map((m) => m.name);
  gates.forEach((g, i) => {
    if (!metrics.includes(g.metric))
      problems.push({
        path: `gates.${i}.metric`,
        message: `no metric '${g.metric}' (metrics: ${metrics.join(", ")})`,
      });
  });
  if (cells > MAX_CELLS)
    problems.push({
      path: "repeats",
      message: `${cells} runs is more than ${MAX_CELLS}: fewer rows, variants or repeats`,
    });
  return problems;
}
