"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { toast } from "@/components/ui/toast";
import { viewsApi } from "@/lib/api/client";

const KEY = ["views"];

/** The person's saved views, and saving the current filters as one or deleting one. */
export function useSavedViews(query: string) {
  const client = useQueryClient();
  const views = useQuery({ queryKey: KEY, queryFn: viewsApi.list });
  const [saving, setSaving] = useState(false);
  const [name, setName] = useState("");
  const [error, setError] = useState("");

  const save = useMutation({
    mutationFn: viewsApi.create,
    onSuccess: (view) => {
      client.invalidateQueries({ queryKey: KEY });
      setSaving(false);
      setName("");
      toast.success(`View “${view.name}” saved`);
    },
    onError: (e) => setError(e.message),
  });
  const remove = useMutation({
    mutationFn: viewsApi.remove,
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
    onError: (e) => toast.error(`Could not delete the view: ${e.message}`),
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setError("Give the view a name.");
    setError("");
    save.mutate({ name: name.trim(), query });
  };
  const list = views.data?.views ?? [];
  return {
    list,
    loadError: views.error,
    current: list.find((v) => v.query === query),
    saving,
    setSaving,
    name,
    setName,
    error,
    submit,
    savePending: save.isPending,
    remove,
  };
}

export type SavedViewsState = ReturnType<typeof useSavedViews>;
