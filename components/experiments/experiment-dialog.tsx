"use client";

import { useQueryClient } from "@tanstack/react-query";
import { FlaskConical } from "lucide-react";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { Field, fieldAria } from "@/components/ui/field";
import { Checkbox, Input, Select } from "@/components/ui/input";
import { ApiError, type Dataset, experimentsApi, type Variant } from "@/lib/api/client";
import type { ExperimentCreate } from "@/lib/contract/experiments";

type Scorers = NonNullable<ExperimentCreate["scorers"]>;

/** "New experiment": a dataset, the variants, how often and how many at once, how it is scored. */
export function ExperimentDialog({
  crew,
  datasets,
  variants,
  tasks,
  canReview,
}: {
  crew: string;
  /** Only a reviewer may run an experiment without reviews and tool approvals. */
  canReview: boolean;
  datasets: Dataset[];
  variants: Variant[];
  tasks: { id: string }[];
}) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [dataset, setDataset] = useState("");
  const [picked, setPicked] = useState<Set<string>>(new Set(["current"]));
  const [repeats, setRepeats] = useState("3");
  const [parallelism, setParallelism] = useState("4");
  const [maxTokens, setMaxTokens] = useState("");
  const [task, setTask] = useState("");
  const [judgeModel, setJudgeModel] = useState("");
  const [similarity, setSimilarity] = useState(true);
  const [skipReviews, setSkipReviews] = useState(canReview);
  const [contains, setContains] = useState("");
  const [error, setError] = useState<string>();
  const queryClient = useQueryClient();
  const router = useRouter();
  const base = useId();
  const chosen = dataset || datasets[0]?.id || "";
  const names = ["current", ...variants.map((v) => v.name)];

  async function start() {
    setError(undefined);
    const scope = task ? { task } : {};
    const scorers: Scorers = [
      ...(similarity ? [{ type: "similarity" as const, ...scope }] : []),
      ...(contains.trim() ? [{ type: "contains" as const, value: contains.trim(), ...scope }] : []),
      ...(judgeModel.trim()
        ? [
            {
              type: "judge" as const,
              name: "quality",
              model: judgeModel.trim(),
              preset: "crewai" as const,
              pass_at: 7,
              ...scope,
            },
          ]
        : []),
    ];
    const chosenVariants = names.filter((n) => picked.has(n));
    if (judgeModel.trim() && chosenVariants.length === 2)
      scorers.push({
        type: "pairwise",
        model: judgeModel.trim(),
        variants: [chosenVariants[0], chosenVariants[1]] as [string, string],
        ...scope,
      });
    try {
      const x = await experimentsApi(crew).createExperiment({
        name: name.trim() || `${chosenVariants.join(" vs ")}`,
        dataset: chosen,
        variants: chosenVariants,
        repeats: Number(repeats) || 1,
        parallelism: Number(parallelism) || 4,
        reviews: skipReviews ? "skip" : "wait",
        ...(maxTokens ? { budget: { max_tokens: Number(maxTokens) } } : {}),
        scorers,
      });
      void queryClient.invalidateQueries({ queryKey: ["crews", crew, "experiments"] });
      setOpen(false);
      router.push(`/crews/${encodeURIComponent(crew)}/experiments/${x.id}`);
    } catch (err) {
      const list = err instanceof ApiError ? err.problem.errors : undefined;
      setError(
        list?.length
          ? list.map((e) => `${e.path}: ${e.message}`).join("; ")
          : (err as Error).message,
      );
    }
  }

  const id = (f: string) => `${base}-${f}`;
  const runs =
    (datasets.find((d) => d.id === chosen)?.row_count ?? 0) * picked.size * (Number(repeats) || 1);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button
        size="sm"
        variant="primary"
        onClick={() => setOpen(true)}
        disabled={!datasets.length}
        title={datasets.length ? undefined : "Make a dataset first"}
      >
        <FlaskConical aria-hidden />
        New experiment
      </Button>
      <DialogContent
        title="New experiment"
        description="Every row runs with every variant, as many times as you say. Each run is scored; the matrix compares them."
        className="sm:max-w-xl"
      >
        <div className="grid gap-4">
          <Field id={id("name")} label="Name">
            <Input
              {...fieldAria(id("name"), {})}
              value={name}
              placeholder="e.g. terse vs current"
              onChange={(e) => setName(e.target.value)}
            />
          </Field>
          <Field id={id("dataset")} label="Dataset" required>
            <Select id={id("dataset")} value={chosen} onChange={(e) => setDataset(e.target.value)}>
              {datasets.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name} ({d.row_count} rows)
                </option>
              ))}
            </Select>
          </Field>
          <fieldset className="grid gap-2">
            <legend className="mb-1 font-medium text-sm">Variants</legend>
            {names.map((n) => (
              <label
                key={n}
                htmlFor={id(`variant-${n}`)}
                className="flex items-center gap-2 text-sm"
              >
                <Checkbox
                  id={id(`variant-${n}`)}
                  checked={picked.has(n)}
                  onChange={() =>
                    setPicked((p) => {
                      const s = new Set(p);
                      if (s.has(n)) s.delete(n);
                      else s.add(n);
                      return s;
                    })
                  }
                />
                {n === "current" ? "The crew as it is" : n}
              </label>
            ))}
          </fieldset>
          <div className="grid gap-4 sm:grid-cols-3">
            <Field id={id("repeats")} label="Repeats" help="Runs per row and variant">
              <Input
                {...fieldAria(id("repeats"), { help: true })}
                type="number"
                min={1}
                max={20}
                value={repeats}
                onChange={(e) => setRepeats(e.target.value)}
              />
            </Field>
            <Field id={id("parallel")} label="At once" help="Runs in parallel">
              <Input
                {...fieldAria(id("parallel"), { help: true })}
                type="number"
                min={1}
                max={32}
                value={parallelism}
                onChange={(e) => setParallelism(e.target.value)}
              />
            </Field>
            <Field id={id("budget")} label="Token budget" help="Stops when used">
              <Input
                {...fieldAria(id("budget"), { help: true })}
                type="number"
                min={1}
                value={maxTokens}
                placeholder="none"
                onChange={(e) => setMaxTokens(e.target.value)}
              />
            </Field>
          </div>
          <label htmlFor={id("skip")} className="flex items-start gap-2 text-sm">
            <Checkbox
              id={id("skip")}
              className="mt-0.5"
              checked={skipReviews}
              disabled={!canReview}
              onChange={() => setSkipReviews(!skipReviews)}
            />
            <span>
              Run without reviews and tool approvals
              <span className="block text-muted-foreground text-xs">
                {canReview
                  ? "Reviewers' past decisions are the yardstick; left on, nothing waits for a person."
                  : "Needs the reviewer role: these runs wait for review as any run does."}
              </span>
            </span>
          </label>
          <fieldset className="grid gap-3 rounded-md border p-3">
            <legend className="px-1 font-medium text-sm">Scores</legend>
            <Field id={id("task")} label="Output scored">
              <Select id={id("task")} value={task} onChange={(e) => setTask(e.target.value)}>
                <option value="">The run's final output</option>
                {tasks.map((t) => (
                  <option key={t.id} value={t.id}>
                    Task {t.id}
                  </option>
                ))}
              </Select>
            </Field>
            <label htmlFor={id("similarity")} className="flex items-center gap-2 text-sm">
              <Checkbox
                id={id("similarity")}
                checked={similarity}
                onChange={() => setSimilarity(!similarity)}
              />
              Similarity to the expected output (word overlap)
            </label>
            <Field id={id("contains")} label="Must contain">
              <Input
                {...fieldAria(id("contains"), {})}
                value={contains}
                placeholder="optional text"
                onChange={(e) => setContains(e.target.value)}
              />
            </Field>
            <Field
              id={id("judge")}
              label="Judge model"
              help="Scores 1–10 as crewai test does; with two variants, also picks the better of each pair."
            >
              <Input
                {...fieldAria(id("judge"), { help: true })}
                className="font-mono"
                value={judgeModel}
                placeholder="e.g. openai/gpt-4o-mini (optional)"
                onChange={(e) => setJudgeModel(e.target.value)}
              />
            </Field>
          </fieldset>
          {error && <Alert tone="danger">{error}</Alert>}
          <div className="flex items-center justify-end gap-3">
            <span className="text-muted-foreground text-sm">{runs} runs</span>
            <Button variant="primary" onClick={start} disabled={!picked.size || !chosen}>
              Start the experiment
            </Button>
          </div>
        </div>
      </DialogContent>
    </Dialog>
  );
}
