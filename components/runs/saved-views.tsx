"use client";

import { Bookmark, ChevronDown, Plus, Settings2, Trash2 } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogFooter } from "@/components/ui/dialog";
import * as Menu from "@/components/ui/dropdown-menu";
import { Field, fieldAria } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { VIEW_NAME_MAX } from "@/lib/views/schema";
import { type SavedViewsState, useSavedViews } from "./use-saved-views";

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
  const views = useSavedViews(query);
  const [managing, setManaging] = useState(false);
  return (
    <>
      <Menu.DropdownMenu defaultOpen={defaultOpen}>
        <Menu.DropdownMenuTrigger asChild>
          <Button>
            <Bookmark aria-hidden />
            <span className="max-w-32 truncate">
              {views.current ? views.current.name : "Views"}
            </span>
            <ChevronDown aria-hidden className="text-muted-foreground" />
          </Button>
        </Menu.DropdownMenuTrigger>
        <ViewsMenuContent
          views={views}
          query={query}
          apply={apply}
          manage={() => setManaging(true)}
        />
      </Menu.DropdownMenu>
      <SaveViewDialog views={views} query={query} />
      <Dialog open={managing} onOpenChange={setManaging}>
        <DialogContent title="Saved views" description="Deleting a view leaves the runs alone.">
          <ManageViews views={views} />
        </DialogContent>
      </Dialog>
    </>
  );
}

function ViewsMenuContent({
  views,
  query,
  apply,
  manage,
}: {
  views: SavedViewsState;
  query: string;
  apply: (query: string) => void;
  manage: () => void;
}) {
  const { list } = views;
  return (
    <Menu.DropdownMenuContent align="end" className="w-60">
      <Menu.DropdownMenuLabel className="text-muted-foreground text-xs">
        Your saved views
      </Menu.DropdownMenuLabel>
      {views.loadError && (
        <p className="px-2 py-1.5 text-muted-foreground text-xs">
          Saved views could not be loaded.
        </p>
      )}
      {!views.loadError && list.length === 0 && (
        <p className="px-2 py-1.5 text-muted-foreground text-xs">
          None yet: filter the list, then save it here.
        </p>
      )}
      {list.map((v) => (
        <Menu.DropdownMenuItem key={v.id} onSelect={() => apply(v.query)}>
          <span className="truncate">{v.name}</span>
          {v.query === query && (
            <span className="ml-auto text-muted-foreground text-xs">current</span>
          )}
        </Menu.DropdownMenuItem>
      ))}
      <Menu.DropdownMenuSeparator />
      <Menu.DropdownMenuItem onSelect={() => views.setSaving(true)} disabled={!query}>
        <Plus aria-hidden />
        Save current filters…
      </Menu.DropdownMenuItem>
      <Menu.DropdownMenuItem onSelect={manage} disabled={list.length === 0}>
        <Settings2 aria-hidden />
        Manage views…
      </Menu.DropdownMenuItem>
    </Menu.DropdownMenuContent>
  );
}

function SaveViewDialog({ views, query }: { views: SavedViewsState; query: string }) {
  const { error } = views;
  return (
    <Dialog open={views.saving} onOpenChange={views.setSaving}>
      <DialogContent
        title="Save view"
        description="Saves the current filters under a name only you see."
      >
        <form onSubmit={views.submit} className="grid gap-4">
          <Field id="view-name" label="Name" error={error}>
            <Input
              {...fieldAria("view-name", { error })}
              value={views.name}
              onChange={(e) => views.setName(e.target.value)}
              maxLength={VIEW_NAME_MAX}
              placeholder="e.g. Failed runs this week"
              autoFocus
            />
          </Field>
          <p className="break-all font-mono text-muted-foreground text-xs">?{query}</p>
          <DialogFooter>
            <Button onClick={() => views.setSaving(false)}>Cancel</Button>
            <Button type="submit" variant="primary" disabled={views.savePending}>
              Save view
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function ManageViews({ views }: { views: SavedViewsState }) {
  const { remove } = views;
  return (
    <ul className="grid divide-y rounded-lg border">
      {views.list.map((v) => (
        <li key={v.id} className="flex items-center gap-3 px-3 py-2">
          <div className="grid min-w-0 flex-1">
            <span className="truncate font-medium">{v.name}</span>
            <span className="truncate font-mono text-muted-foreground text-xs">?{v.query}</span>
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
  );
}
