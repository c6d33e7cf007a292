"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "@/components/ui/toast";
import { ApiError, type Dataset, experimentsApi } from "@/lib/api/client";
import { type RowProblem, rowProblemsOf, rowsType, savedMessage } from "./dataset-save";

/**
 * Saving the dataset dialog: makes the dataset when there is none, then sends the rows; says
 * the server's row problems or its error, and on success clears the form and closes.
 */
export function useDatasetSave(crew: string, dataset: Dataset | undefined) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [text, setText] = useState("");
  const [problems, setProblems] = useState<RowProblem[]>([]);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();
  const api = experimentsApi(crew);

  async function addRows(target: Dataset) {
    if (!text.trim()) return 0;
    try {
      return (await api.uploadRows(target.id, text, rowsType(text))).added;
    } catch (err) {
      // A new dataset whose first rows were refused is not left behind, empty.
      if (!dataset) await api.deleteDataset(target.id).catch(() => undefined);
      throw err;
    }
  }

  async function save() {
    setProblems([]);
    setError(undefined);
    if (!dataset && !name.trim()) return setError("Name the dataset.");
    setBusy(true);
    try {
      const target = dataset ?? (await api.createDataset({ name: name.trim() }));
      const added = await addRows(target);
      toast.success(savedMessage(dataset, target.name, added));
      void queryClient.invalidateQueries({ queryKey: ["crews", crew, "datasets"] });
      setOpen(false);
      setText("");
      setName("");
    } catch (err) {
      if (err instanceof ApiError && err.problem.errors?.length)
        setProblems(rowProblemsOf(err.problem.errors));
      else setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  return { open, setOpen, name, setName, text, setText, problems, error, busy, save };
}
