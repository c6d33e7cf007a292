"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import type { MouseEvent } from "react";
import { useCrewName } from "@/components/crew-names";
import { Checkbox } from "@/components/ui/input";
import { RelativeTime } from "@/components/ui/relative-time";
import { StatusPill } from "@/components/ui/status-pill";
import * as T from "@/components/ui/table";
import { formatDuration } from "@/lib/format/duration";
import { shortId } from "@/lib/format/id";
import { formatTokens, formatUsd } from "@/lib/format/numbers";
import {
  crewHref,
  metaTags,
  pageSelection,
  type RunRow,
  runDuration,
  runHref,
  startedByLabel,
} from "./model";

type Props = {
  runs: RunRow[];
  selected: ReadonlySet<string>;
  toggle: (id: string) => void;
  toggleAll: (on: boolean) => void;
  onTag: (tag: string) => void;
  /** Someone who may act on runs (re-run, stop, tag) selects them; a viewer only reads. */
  selectable: boolean;
};

// A click on the row opens the run, unless it was on something with its own job (a link, the
// checkbox, a tag) or the end of selecting text to copy.
function useRowOpen() {
  const router = useRouter();
  return (e: MouseEvent, href: string) => {
    const target = e.target as HTMLElement;
    if (target.closest("a, button, input, label")) return;
    if (window.getSelection()?.toString()) return;
    if (e.metaKey || e.ctrlKey) window.open(href, "_blank", "noopener");
    else router.push(href);
  };
}

function Tags({ meta, onTag }: { meta: RunRow["meta"]; onTag: (tag: string) => void }) {
  const tags = metaTags(meta);
  if (!tags.length) return <span className="text-muted-foreground">—</span>;
  return (
    <div className="flex max-w-64 items-center gap-1">
      {tags.slice(0, 2).map((tag) => (
        <button
          key={tag}
          type="button"
          onClick={() => onTag(tag)}
          title={`Show only runs tagged ${tag}`}
          className="max-w-32 cursor-pointer truncate whitespace-nowrap rounded-full border bg-muted px-2 py-0.5 text-muted-foreground text-xs hover:border-ring hover:text-foreground"
        >
          {tag}
        </button>
      ))}
      {tags.length > 2 && (
        <span className="px-1 text-muted-foreground text-xs" title={tags.slice(2).join(", ")}>
          +{tags.length - 2}
        </span>
      )}
    </div>
  );
}

const num = "text-right tabular-nums whitespace-nowrap";

/** The runs as a table from 768 px up; every row opens its run. */
export function RunsTableView({ runs, selected, toggle, toggleAll, onTag, selectable }: Props) {
  const crewName = useCrewName();
  const open = useRowOpen();
  return (
    <T.Table aria-label="Runs">
      <T.TableHeader>
        <RunsTableHead
          selection={selectable && pageSelection(runs, selected)}
          toggleAll={toggleAll}
        />
      </T.TableHeader>
      <T.TableBody>
        {runs.map((r) => (
          <RunTableRow
            key={r.id}
            run={r}
            crewName={crewName(r.crew)}
            open={open}
            selected={selected.has(r.id)}
            toggle={selectable && (() => toggle(r.id))}
            onTag={onTag}
          />
        ))}
      </T.TableBody>
    </T.Table>
  );
}

function RunsTableHead({
  selection,
  toggleAll,
}: {
  selection: false | { all: boolean; some: boolean };
  toggleAll: (on: boolean) => void;
}) {
  return (
    <T.TableRow>
      {selection && (
        <T.TableHead className="w-10 pr-0">
          <Checkbox
            aria-label="Select all runs on this page"
            className="block"
            checked={selection.all}
            ref={(el) => {
              if (el) el.indeterminate = selection.some && !selection.all;
            }}
            onChange={(e) => toggleAll(e.target.checked)}
          />
        </T.TableHead>
      )}
      <T.TableHead>Status</T.TableHead>
      <T.TableHead>Run</T.TableHead>
      <T.TableHead className="w-1/4">Crew</T.TableHead>
      <T.TableHead>Started</T.TableHead>
      <T.TableHead className="text-right">Duration</T.TableHead>
      <T.TableHead className="text-right">Tokens</T.TableHead>
      <T.TableHead className="text-right">Cost</T.TableHead>
      <T.TableHead>Tags</T.TableHead>
      <T.TableHead>Started by</T.TableHead>
    </T.TableRow>
  );
}

function RunTableRow({
  run: r,
  crewName,
  open,
  selected,
  toggle,
  onTag,
}: {
  run: RunRow;
  crewName: string;
  open: ReturnType<typeof useRowOpen>;
  selected: boolean;
  /** Selects or unselects the run; false where runs cannot be selected. */
  toggle: false | (() => void);
  onTag: Props["onTag"];
}) {
  const href = runHref(r);
  return (
    <T.TableRow
      data-run={r.id}
      data-state={selected ? "selected" : undefined}
      onClick={(e) => open(e, href)}
      className="cursor-pointer hover:bg-muted/60 data-[state=selected]:bg-accent/60"
    >
      {toggle && (
        <T.TableCell className="w-10 pr-0">
          <Checkbox
            aria-label={`Select run ${shortId(r.id)}`}
            checked={selected}
            onChange={toggle}
            className="block"
          />
        </T.TableCell>
      )}
      <T.TableCell>
        <StatusPill status={r.status} />
      </T.TableCell>
      <T.TableCell>
        <Link
          href={href}
          className="font-mono text-link text-xs hover:underline"
          aria-label={`Run ${shortId(r.id)} of ${crewName}`}
          title={r.id}
        >
          {shortId(r.id)}
        </Link>
      </T.TableCell>
      <T.TableCell className="max-w-48 truncate">
        <Link
          href={crewHref(r.crew)}
          className="font-medium text-foreground hover:text-link hover:underline"
        >
          {crewName}
        </Link>
      </T.TableCell>
      <T.TableCell className="text-muted-foreground">
        <RelativeTime iso={r.created_at} />
      </T.TableCell>
      <T.TableCell className={num}>{formatDuration(runDuration(r))}</T.TableCell>
      <T.TableCell className={num} title={tokenTitle(r)}>
        {formatTokens(r.token_usage?.total_tokens)}
      </T.TableCell>
      <T.TableCell className={num}>{formatUsd(r.cost_usd)}</T.TableCell>
      <T.TableCell>
        <Tags meta={r.meta} onTag={onTag} />
      </T.TableCell>
      <T.TableCell className="max-w-48 truncate text-muted-foreground">
        {startedByLabel(r.started_by, r.meta)}
      </T.TableCell>
    </T.TableRow>
  );
}

const tokenTitle = (r: RunRow) =>
  r.token_usage
    ? `${r.token_usage.input_tokens} in · ${r.token_usage.output_tokens} out`
    : undefined;

/** The runs as cards below 768 px: what matters to tell them apart, each card one link. */
export function RunsCardList({
  runs,
  selected,
  toggle,
  selectable,
}: Omit<Props, "toggleAll" | "onTag">) {
  const crewName = useCrewName();
  return (
    <ul aria-label="Runs" className="grid gap-2">
      {runs.map((r) => (
        <li
          key={r.id}
          data-run={r.id}
          className="relative flex items-start gap-3 rounded-lg border bg-card p-3 shadow-xs has-[a:focus-visible]:outline-2 has-[a:focus-visible]:outline-ring"
        >
          {selectable && (
            <Checkbox
              aria-label={`Select run ${shortId(r.id)}`}
              checked={selected.has(r.id)}
              onChange={() => toggle(r.id)}
              className="relative z-10 mt-1"
            />
          )}
          <div className="grid min-w-0 flex-1 gap-1.5">
            <div className="flex items-center justify-between gap-2">
              <Link
                href={runHref(r)}
                className="truncate font-medium text-foreground outline-none after:absolute after:inset-0 after:rounded-lg"
              >
                {crewName(r.crew)}
              </Link>
              <StatusPill status={r.status} />
            </div>
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-muted-foreground text-xs">
              <code className="bg-transparent p-0 font-mono">{shortId(r.id)}</code>
              <span suppressHydrationWarning>
                <RelativeTime iso={r.created_at} className="relative z-10" />
              </span>
              <span className="tabular-nums">{formatDuration(runDuration(r))}</span>
            </div>
          </div>
        </li>
      ))}
    </ul>
  );
}
