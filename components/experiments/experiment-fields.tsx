"use client";

import { Field, fieldAria } from "@/components/ui/field";
import { Checkbox, Input, Select } from "@/components/ui/input";
import type { Dataset } from "@/lib/api/client";
import type { ExperimentForm } from "./experiment-form";

// The sections of "New experiment" (experiment-dialog.tsx): variants, run size, reviews, scores.

export type SetField = <K extends keyof ExperimentForm>(key: K, value: ExperimentForm[K]) => void;
type FormProps = { form: ExperimentForm; set: SetField; id: (field: string) => string };

export function NameAndDataset({
  form,
  set,
  id,
  datasets,
  chosen,
}: FormProps & { datasets: Dataset[]; chosen: string }) {
  return (
    <>
      <Field id={id("name")} label="Name">
        <Input
          {...fieldAria(id("name"), {})}
          value={form.name}
          placeholder="e.g. terse vs current"
          onChange={(e) => set("name", e.target.value)}
        />
      </Field>
      <Field id={id("dataset")} label="Dataset" required>
        <Select id={id("dataset")} value={chosen} onChange={(e) => set("dataset", e.target.value)}>
          {datasets.map((d) => (
            <option key={d.id} value={d.id}>
              {d.name} ({d.row_count} rows)
            </option>
          ))}
        </Select>
      </Field>
    </>
  );
}

export function VariantChoices({
  names,
  picked,
  id,
  onToggle,
}: {
  names: string[];
  picked: Set<string>;
  id: (field: string) => string;
  onToggle: (name: string) => void;
}) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 font-medium text-sm">Variants</legend>
      {names.map((n) => (
        <label key={n} htmlFor={id(`variant-${n}`)} className="flex items-center gap-2 text-sm">
          <Checkbox id={id(`variant-${n}`)} checked={picked.has(n)} onChange={() => onToggle(n)} />
          {n === "current" ? "The crew as it is" : n}
        </label>
      ))}
    </fieldset>
  );
}

export function RunSizeFields({ form, set, id }: FormProps) {
  return (
    <div className="grid gap-4 sm:grid-cols-3">
      <Field id={id("repeats")} label="Repeats" help="Runs per row and variant">
        <Input
          {...fieldAria(id("repeats"), { help: true })}
          type="number"
          min={1}
          max={20}
          value={form.repeats}
          onChange={(e) => set("repeats", e.target.value)}
        />
      </Field>
      <Field id={id("parallel")} label="At once" help="Runs in parallel">
        <Input
          {...fieldAria(id("parallel"), { help: true })}
          type="number"
          min={1}
          max={32}
          value={form.parallelism}
          onChange={(e) => set("parallelism", e.target.value)}
        />
      </Field>
      <Field id={id("budget")} label="Token budget" help="Stops when used">
        <Input
          {...fieldAria(id("budget"), { help: true })}
          type="number"
          min={1}
          value={form.maxTokens}
          placeholder="none"
          onChange={(e) => set("maxTokens", e.target.value)}
        />
      </Field>
    </div>
  );
}

/** Only a reviewer may run an experiment without reviews and tool approvals. */
export function SkipReviewsChoice({
  form,
  set,
  id,
  canReview,
}: FormProps & { canReview: boolean }) {
  return (
    <label htmlFor={id("skip")} className="flex items-start gap-2 text-sm">
      <Checkbox
        id={id("skip")}
        className="mt-0.5"
        checked={form.skipReviews}
        disabled={!canReview}
        onChange={() => set("skipReviews", !form.skipReviews)}
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
  );
}

export function ScoreFields({ form, set, id, tasks }: FormProps & { tasks: { id: string }[] }) {
  return (
    <fieldset className="grid gap-3 rounded-md border p-3">
      <legend className="px-1 font-medium text-sm">Scores</legend>
      <Field id={id("task")} label="Output scored">
        <Select id={id("task")} value={form.task} onChange={(e) => set("task", e.target.value)}>
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
          checked={form.similarity}
          onChange={() => set("similarity", !form.similarity)}
        />
        Similarity to the expected output (word overlap)
      </label>
      <Field id={id("contains")} label="Must contain">
        <Input
          {...fieldAria(id("contains"), {})}
          value={form.contains}
          placeholder="optional text"
          onChange={(e) => set("contains", e.target.value)}
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
          value={form.judgeModel}
          placeholder="e.g. openai/gpt-4o-mini (optional)"
          onChange={(e) => set("judgeModel", e.target.value)}
        />
      </Field>
    </fieldset>
  );
}
