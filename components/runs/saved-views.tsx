"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Bookmark, ChevronDown, Plus, Settings2, Trash2 } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogFooter } from "@/components/ui/dialog";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { Field, fieldAria } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toast";
import { viewsApi } from "@/lib/api/client";
import { VIEW_NAME_MAX } from "@/lib/views/schema";

const KEY = ["views"];

/** The person's saved filter sets: apply one, save the current filters, delete old ones. */
export function SavedViews({
  query,
  apply,
  defaultOpen,
}: {
  query: string;
  apply: (query: string) => void;
  defaultOpen?: boolean;
}) {
  const client = useQueryClient();
  const views = useQuery({ queryKey: KEY, queryFn: viewsApi.list });
  const [saving, setSaving] = useState(false);
  const [managing, setManaging] = useState(false);
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
  const current = list.find((v) => v.query === query);

  return (
    <>
      <DropdownMenu defaultOpen={defaultOpen}>
        <DropdownMenuTrigger asChild>
          <Button>
            <Bookmark aria-hidden />
            <span className="max-w-32 truncate">{current ? current.name : "Views"}</span>
            <ChevronDown aria-hidden className="text-muted-foreground" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="w-60">
          <DropdownMenuLabel className="text-muted-foreground text-xs">
            Your saved views
          </DropdownMenuLabel>
          {views.error && (
            <p className="px-2 py-1.5 text-muted-foreground text-xs">
              Saved views could not be loaded.
            </p>
          )}
          {!views.error && list.length === 0 && (
            <p className="px-2 py-1.5 text-muted-foreground text-xs">
              None yet: filter the list, then save it here.
            </p>
          )}
          {list.map((v) => (
            <DropdownMenuItem key={v.id} onSelect={() => apply(v.query)}>
              <span className="truncate">{v.name}</span>
              {v.query === query && (
                <span className="ml-auto text-muted-foreground text-xs">current</span>
              )}
            </DropdownMenuItem>
          ))}
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => setSaving(true)} disabled={!query}>
            <Plus aria-hidden />
            Save current filters…
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => setManaging(true)} disabled={list.length === 0}>
            <Settings2 aria-hidden />
            Manage views…
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>

      <Dialog open={saving} onOpenChange={setSaving}>
        <DialogContent
          title="Save view"
          description="Saves the current filters under a name only you see."
        >
          <form onSubmit={submit} className="grid gap-4">
            <Field id="view-name" label="Name" error={error}>
              <Input
                {...fieldAria("view-name", { error })}
                value={name}
                onChange={(e) => setName(e.target.value)}
                maxLength={VIEW_NAME_MAX}
                placeholder="e.g. Failed runs this week"
                autoFocus
              />
            </Field>
            <p className="break-all font-mono text-muted-foreground text-xs">?{query}</p>
            <DialogFooter>
              <Button onClick={() => setSaving(false)}>Cancel</Button>
              <Button type="submit" variant="primary" disabled={save.isPending}>
                Save view
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>

      <Dialog open={managing} onOpenChange={setManaging}>
        <DialogContent title="Saved views" description="Deleting a view leaves the runs alone.">
          <ul className="grid divide-y rounded-lg border">
            {list.map((v) => (
              <li key={v.id} className="flex items-center gap-3 px-3 py-2">
                <div className="grid min-w-0 flex-1">
                  <span className="truncate font-medium">{v.name}</span>
                  <span className="truncate font-mono text-muted-foreground text-xs">
                    ?{v.query}
                  </span>
                </div>
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Delete view ${v.name}`}
                  disabled={remove.isPending}
                  onClick={() => remove.mutate(v.id)}
                >
                  <Trash2 aria-hidden />
                </Button>
              </li>
            ))}
          </ul>
        </DialogContent>
      </Dialog>
    </>
  );
}
