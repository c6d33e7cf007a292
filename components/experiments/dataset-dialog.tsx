"use client";

import { Database, Upload } from "lucide-react";
import { useId } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { Field, fieldAria } from "@/components/ui/field";
import { Input, Textarea } from "@/components/ui/input";
import type { Dataset } from "@/lib/api/client";
import { type RowProblem, rowProblemPrefix, saveLabel } from "./dataset-save";
import { useDatasetSave } from "./use-dataset-save";

/** The server's row-by-row refusal, as a list a person can fix the file from. */
export function RowProblems({ problems }: { problems: RowProblem[] }) {
  if (!problems.length) return null;
  return (
    <Alert
      tone="danger"
      title={`${problems.length} problem${problems.length === 1 ? "" : "s"}: nothing was added`}
    >
      <ul className="m-0 grid max-h-48 list-none gap-1 overflow-y-auto p-0 text-xs">
        {problems.slice(0, 50).map((p, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the server's list, in its order
          <li key={i}>
            {rowProblemPrefix(p)}
            <code className="font-mono">{p.path}</code> {p.message}
          </li>
        ))}
      </ul>
    </Alert>
  );
}

/**
 * "New dataset" (or, given one, "Upload rows"): a name, then rows as CSV (a header of input
 * names, `expected.<task>` columns) or JSON Lines, pasted or from a file.
 */
export function DatasetDialog({ crew, dataset }: { crew: string; dataset?: Dataset }) {
  const form = useDatasetSave(crew, dataset);
  return (
    <Dialog open={form.open} onOpenChange={form.setOpen}>
      <Button size="sm" variant={dataset ? "ghost" : "primary"} onClick={() => form.setOpen(true)}>
        {dataset ? <Upload aria-hidden /> : <Database aria-hidden />}
        {dataset ? "Upload rows" : "New dataset"}
      </Button>
      <DialogContent
        title={dataset ? `Upload rows to “${dataset.name}”` : "New dataset"}
        description="Each row is checked against the crew's inputs, as a kickoff is. One bad row adds none: the list says which and why."
        className="sm:max-w-xl"
      >
        <div className="grid gap-4">
          <DatasetFields
            named={!dataset}
            name={form.name}
            setName={form.setName}
            text={form.text}
            setText={form.setText}
          />
          {form.error && <Alert tone="danger">{form.error}</Alert>}
          <RowProblems problems={form.problems} />
          <div className="flex justify-end">
            <Button variant="primary" onClick={form.save} disabled={form.busy}>
              {saveLabel(form.busy, Boolean(dataset))}
            </Button>
          </div>
        </div>
      </DialogContent>
    </Dialog>
  );
}

/** The new dataset's name (when there is no dataset yet), then its rows, typed or from a file. */
function DatasetFields({
  named,
  name,
  setName,
  text,
  setText,
}: {
  named: boolean;
  name: string;
  setName: (name: string) => void;
  text: string;
  setText: (text: string) => void;
}) {
  const base = useId();
  const id = (f: string) => `${base}-${f}`;
  return (
    <>
      {named && (
        <Field id={id("name")} label="Name" required>
          <Input
            {...fieldAria(id("name"), {})}
            value={name}
            placeholder="e.g. Hard cases"
            onChange={(e) => setName(e.target.value)}
          />
        </Field>
      )}
      <Field
        id={id("rows")}
        label="Rows"
        help="CSV with a header of input names (and expected.<task> columns), or JSON Lines. Optional: rows can come later, or from runs."
      >
        <Textarea
          {...fieldAria(id("rows"), { help: true })}
          className="min-h-32 font-mono text-xs"
          value={text}
          placeholder={"topic,audience,expected.write\nTides,kids,A short note on tides"}
          onChange={(e) => setText(e.target.value)}
        />
        <Input
          type="file"
          accept=".csv,.jsonl,.ndjson,text/csv"
          aria-label="Read rows from a file"
          onChange={async (e) => {
            const file = e.target.files?.[0];
            if (file) setText(await file.text());
          }}
        />
      </Field>
    </>
  );
}
