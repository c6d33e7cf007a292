import type { ExperimentCreate } from "@/lib/contract/experiments";

// What "New experiment" asks for, and the request it makes of it.

export type ExperimentForm = {
  name: string;
  dataset: string;
  picked: Set<string>;
  repeats: string;
  parallelism: string;
  maxTokens: string;
  task: string;
  judgeModel: string;
  similarity: boolean;
  skipReviews: boolean;
  contains: string;
};

/** Only a reviewer may run an experiment without reviews and tool approvals: it starts on for them. */
export function newExperimentForm(canReview: boolean): ExperimentForm {
  return {
    name: "",
    dataset: "",
    picked: new Set(["current"]),
    repeats: "3",
    parallelism: "4",
    maxTokens: "",
    task: "",
    judgeModel: "",
    similarity: true,
    skipReviews: canReview,
    contains: "",
  };
}

export function togglePicked(picked: Set<string>, name: string): Set<string> {
  const s = new Set(picked);
  if (s.has(name)) s.delete(name);
  else s.add(name);
  return s;
}

type Scorers = NonNullable<ExperimentCreate["scorers"]>;

/** The scores asked for, each on the chosen task's output; a judge also compares two variants. */
export function experimentScorers(f: ExperimentForm, chosenVariants: string[]): Scorers {
  const scope = f.task ? { task: f.task } : {};
  const contains = f.contains.trim();
  const model = f.judgeModel.trim();
  const scorers: Scorers = [
    ...(f.similarity ? [{ type: "similarity" as const, ...scope }] : []),
    ...(contains ? [{ type: "contains" as const, value: contains, ...scope }] : []),
    ...(model
      ? [
          {
            type: "judge" as const,
            name: "quality",
            model,
            preset: "crewai" as const,
            pass_at: 7,
            ...scope,
          },
        ]
      : []),
  ];
  const [first, second] = chosenVariants;
  if (model && chosenVariants.length === 2 && first !== undefined && second !== undefined)
    scorers.push({ type: "pairwise", model, variants: [first, second], ...scope });
  return scorers;
}

/** The variants picked, in the order they are listed. */
const chosenVariants = (f: ExperimentForm, names: string[]) => names.filter((n) => f.picked.has(n));

export function experimentBody(f: ExperimentForm, names: string[], dataset: string) {
  const variants = chosenVariants(f, names);
  return {
    name: f.name.trim() || `${variants.join(" vs ")}`,
    dataset,
    variants,
    repeats: Number(f.repeats) || 1,
    parallelism: Number(f.parallelism) || 4,
    reviews: f.skipReviews ? ("skip" as const) : ("wait" as const),
    ...(f.maxTokens ? { budget: { max_tokens: Number(f.maxTokens) } } : {}),
    scorers: experimentScorers(f, variants),
  };
}

/** How many runs the experiment makes: rows × variants × repeats. */
export function plannedRuns(rowCount: number, f: ExperimentForm): number {
  return rowCount * f.picked.size * (Number(f.repeats) || 1);
}
