"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Database, Upload } from "lucide-react";
import { useId, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { Field, fieldAria } from "@/components/ui/field";
import { Input, Textarea } from "@/components/ui/input";
import { toast } from "@/components/ui/toast";
import { ApiError, type Dataset, experimentsApi } from "@/lib/api/client";

type RowProblem = { row?: number; line?: number; path: string; message: string };

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
            {p.row ? `Row ${p.row}${p.line ? ` (line ${p.line})` : ""}: ` : ""}
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
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [text, setText] = useState("");
  const [problems, setProblems] = useState<RowProblem[]>([]);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();
  const base = useId();
  const api = experimentsApi(crew);

  async function save() {
    setProblems([]);
    setError(undefined);
    if (!dataset && !name.trim()) return setError("Name the dataset.");
    setBusy(true);
    try {
      const target = dataset ?? (await api.createDataset({ name: name.trim() }));
      let added = 0;
      if (text.trim()) {
        const type = text.trimStart().startsWith("{") ? "application/jsonl" : "text/csv";
        try {
          added = (await api.uploadRows(target.id, text, type)).added;
        } catch (err) {
          // A new dataset whose first rows were refused is not left behind, empty.
          if (!dataset) await api.deleteDataset(target.id).catch(() => undefined);
          throw err;
        }
      }
      toast.success(
        dataset
          ? `${added} rows added to “${dataset.name}”.`
          : `Dataset “${target.name}” created${added ? ` with ${added} rows` : ""}.`,
      );
      void queryClient.invalidateQueries({ queryKey: ["crews", crew, "datasets"] });
      setOpen(false);
      setText("");
      setName("");
    } catch (err) {
      if (err instanceof ApiError && err.problem.errors?.length)
        setProblems(err.problem.errors as RowProblem[]);
      else setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  const id = (f: string) => `${base}-${f}`;
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button size="sm" variant={dataset ? "ghost" : "primary"} onClick={() => setOpen(true)}>
        {dataset ? <Upload aria-hidden /> : <Database aria-hidden />}
        {dataset ? "Upload rows" : "New dataset"}
      </Button>
      <DialogContent
        title={dataset ? `Upload rows to “${dataset.name}”` : "New dataset"}
        description="Each row is checked against the crew's inputs, as a kickoff is. One bad row adds none: the list says which and why."
        className="sm:max-w-xl"
      >
        <div className="grid gap-4">
          {!dataset && (
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
          {error && <Alert tone="danger">{error}</Alert>}
          <RowProblems problems={problems} />
          <div className="flex justify-end">
            <Button variant="primary" onClick={save} disabled={busy}>
              {busy ? "Saving…" : dataset ? "Add the rows" : "Create the dataset"}
            </Button>
          </div>
        </div>
      </DialogContent>
    </Dialog>
  );
}
