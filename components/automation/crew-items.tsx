"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ChevronDown, type LucideIcon } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { shortId } from "@/lib/format/id";
import { ListSection } from "./list-section";

type Kind = "schedules" | "triggers";

/** A crew's schedules or triggers, loaded and kept fresh: each a row, or what an empty list says. */
export function CrewItems<D, T extends { id: string }>({
  crew,
  kind,
  title,
  canEdit,
  load,
  items,
  refetchInterval,
  action,
  empty,
  row,
}: {
  crew: string;
  kind: Kind;
  title: string;
  canEdit: boolean;
  load: () => Promise<D>;
  items: (data: D) => T[];
  refetchInterval: number;
  action: ReactNode;
  empty: { icon: LucideIcon; editor: string; viewer: string };
  row: (item: T) => ReactNode;
}) {
  const { data, error } = useQuery({
    queryKey: ["crews", crew, kind],
    queryFn: load,
    refetchInterval,
  });
  const list = data ? items(data) : undefined;
  return (
    <ListSection
      id={kind}
      title={title}
      action={canEdit && action}
      error={error}
      loading={!data}
      empty={
        list && list.length === 0 ? (
          <EmptyState icon={empty.icon} title={`No ${kind}`}>
            {canEdit ? empty.editor : empty.viewer}
          </EmptyState>
        ) : null
      }
    >
      {list?.map(row)}
    </ListSection>
  );
}

/** Refetches a crew's schedules or triggers. */
export function useRefreshItems(crew: string, kind: Kind) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ["crews", crew, kind] });
}

type Row = { name: string; badges: ReactNode; actions: ReactNode; children: ReactNode };

/** One schedule or trigger: its name and badges, its actions for an editor, then its details. */
export function ItemRow({ name, badges, actions, children }: Row) {
  return (
    <li className="grid gap-2 px-3 py-3 text-sm">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <span className="font-medium">{name}</span>
        {badges}
        {actions && <span className="ml-auto flex gap-1">{actions}</span>}
      </div>
      {children}
    </li>
  );
}

/** Shows or hides a row's history. */
export function ExpandButton({
  open,
  setOpen,
  label,
  openLabel,
}: {
  open: boolean;
  setOpen: (open: boolean) => void;
  label: string;
  openLabel: string;
}) {
  return (
    <Button
      size="sm"
      variant="ghost"
      className="justify-self-start"
      aria-expanded={open}
      onClick={() => setOpen(!open)}
    >
      <ChevronDown aria-hidden className={open ? "rotate-180" : undefined} />
      {open ? openLabel : label}
    </Button>
  );
}

/** The run a due time or delivery started. */
export function RunLink({ crew, id }: { crew: string; id: string }) {
  return (
    <Link className="font-mono text-link hover:underline" href={`/crews/${crew}/runs/${id}`}>
      run {shortId(id)}
    </Link>
  );
}
