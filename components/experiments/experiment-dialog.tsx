"use client";

import { useQueryClient } from "@tanstack/react-query";
import { FlaskConical } from "lucide-react";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { type Dataset, experimentsApi, type Variant } from "@/lib/api/client";
import {
  NameAndDataset,
  RunSizeFields,
  ScoreFields,
  type SetField,
  SkipReviewsChoice,
  VariantChoices,
} from "./experiment-fields";
import {
  type ExperimentForm,
  experimentBody,
  newExperimentForm,
  plannedRuns,
  togglePicked,
} from "./experiment-form";
import { problemText } from "./problem-text";

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
  const [form, setForm] = useState<ExperimentForm>(() => newExperimentForm(canReview));
  const set: SetField = (key, value) => setForm((f) => ({ ...f, [key]: value }));
  const start = useStartExperiment(crew, () => setOpen(false));
  const base = useId();
  const id = (f: string) => `${base}-${f}`;
  const chosen = form.dataset || datasets[0]?.id || "";
  const names = ["current", ...variants.map((v) => v.name)];
  const rows = datasets.find((d) => d.id === chosen)?.row_count ?? 0;
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
          <NameAndDataset form={form} set={set} id={id} datasets={datasets} chosen={chosen} />
          <VariantChoices
            names={names}
            picked={form.picked}
            id={id}
            onToggle={(n) => setForm((f) => ({ ...f, picked: togglePicked(f.picked, n) }))}
          />
          <RunSizeFields form={form} set={set} id={id} />
          <SkipReviewsChoice form={form} set={set} id={id} canReview={canReview} />
          <ScoreFields form={form} set={set} id={id} tasks={tasks} />
          {start.error && <Alert tone="danger">{start.error}</Alert>}
          <div className="flex items-center justify-end gap-3">
            <span className="text-muted-foreground text-sm">{plannedRuns(rows, form)} runs</span>
            <Button
              variant="primary"
              onClick={() => start.run(form, names, chosen)}
              disabled={!form.picked.size || !chosen}
            >
              Start the experiment
            </Button>
          </div>
        </div>
      </DialogContent>
    </Dialog>
  );
}

/** Starts the experiment and opens its page; a refusal stays in the dialog as `error`. */
function useStartExperiment(crew: string, close: () => void) {
  const [error, setError] = useState<string>();
  const queryClient = useQueryClient();
  const router = useRouter();
  async function run(form: ExperimentForm, names: string[], dataset: string) {
    setError(undefined);
    try {
      const x = await experimentsApi(crew).createExperiment(experimentBody(form, names, dataset));
      void queryClient.invalidateQueries({ queryKey: ["crews", crew, "experiments"] });
      close();
      router.push(`/crews/${encodeURIComponent(crew)}/experiments/${x.id}`);
    } catch (err) {
      setError(problemText(err));
    }
  }
  return { error, run };
}
