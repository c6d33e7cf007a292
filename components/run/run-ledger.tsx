"use client";

import { useQuery } from "@tanstack/react-query";
import { ChevronDown, Download, ShieldAlert, ShieldCheck } from "lucide-react";
import { useId, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { type LedgerEntry, type LedgerVerdict, ledgerApi } from "@/lib/api/client/ledger";
import { formatExact } from "@/lib/format/time";
import { actionLabel, actorName, effectLabel, effectTone } from "./ledger-labels";

/**
 * The run's decision ledger: whether its chain verifies, an export, and (opened) its entries.
 * `revision` is the number of review events seen so far: a new one refetches.
 */
export function RunLedger({ crew, id, revision }: { crew: string; id: string; revision: number }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const verdict = useQuery({
    queryKey: ["ledger-verify", crew, id, revision],
    queryFn: () => ledgerApi.verify(crew, id),
  });
  const entries = useQuery({
    queryKey: ["ledger", crew, id, revision],
    queryFn: () => ledgerApi.entries(crew, id),
    enabled: open,
  });
  return (
    <Card aria-labelledby="ledger-title" data-testid="run-ledger">
      <CardHeader>
        <div className="grid gap-0.5">
          <div className="flex flex-wrap items-center gap-2">
            <CardTitle id="ledger-title" className="m-0">
              Decision ledger
            </CardTitle>
            <ChainBadge verdict={verdict.data} />
          </div>
          <CardDescription>
            Every review request and decision, each entry sealed with the hash of the one before.
          </CardDescription>
        </div>
        <div className="flex flex-wrap gap-2">
          {/* A download from the API: a real request, not an in-app page. */}
          <Button asChild size="sm">
            <a href={ledgerApi.exportUrl(crew, id)} download>
              <Download aria-hidden />
              Export JSON
            </a>
          </Button>
          <Button
            size="sm"
            variant="ghost"
            aria-expanded={open}
            aria-controls={listId}
            onClick={() => setOpen((o) => !o)}
          >
            <ChevronDown aria-hidden className={open ? "rotate-180" : undefined} />
            {open
              ? "Hide entries"
              : verdict.data
                ? `Show ${verdict.data.entries} ${verdict.data.entries === 1 ? "entry" : "entries"}`
                : "Show entries"}
          </Button>
        </div>
      </CardHeader>
      <CardContent id={listId} hidden={!open} className="pt-2">
        {verdict.error && (
          <Alert tone="danger" title="The ledger could not be checked">
            {verdict.error.message}
          </Alert>
        )}
        {open && entries.isPending && <Skeleton className="h-24 w-full" />}
        {entries.error && (
          <Alert tone="danger" title="The ledger could not be loaded">
            {entries.error.message}
          </Alert>
        )}
        {entries.data && (
          <LedgerList entries={entries.data} badAt={verdict.data?.first_bad?.position} />
        )}
      </CardContent>
    </Card>
  );
}

function ChainBadge({ verdict }: { verdict: LedgerVerdict | undefined }) {
  if (!verdict) return <Badge tone="outline">Checking chain…</Badge>;
  if (verdict.ok)
    return (
      <Badge tone="success" data-testid="ledger-verdict">
        <ShieldCheck aria-hidden />
        Chain intact
      </Badge>
    );
  return (
    <Badge tone="danger" data-testid="ledger-verdict" title={verdict.first_bad?.reason}>
      <ShieldAlert aria-hidden />
      Chain broken at #{verdict.first_bad?.position} ({verdict.first_bad?.reason})
    </Badge>
  );
}

/** One row per entry; wraps onto two lines at phone width rather than scrolling sideways. */
function LedgerList({ entries, badAt }: { entries: LedgerEntry[]; badAt?: number }) {
  return (
    <ol className="grid gap-2" aria-label="Ledger entries">
      {entries.map((e) => (
        <li
          key={e.position}
          className={`grid gap-1 rounded-md border p-2 text-sm sm:grid-cols-[2.5rem_minmax(0,1fr)_auto] sm:items-center sm:gap-3 ${
            e.position === badAt ? "border-destructive" : ""
          }`}
        >
          <span className="font-mono text-muted-foreground tabular-nums">#{e.position}</span>
          <span className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-0.5">
            <span className="font-medium">{actionLabel(e.action)}</span>
            {e.task_id && (
              <span className="text-muted-foreground">
                {e.task_id}
                {e.attempt !== null && ` · attempt ${e.attempt}`}
              </span>
            )}
            <span className="min-w-0 break-words">by {actorName(e.actor)}</span>
            <time
              dateTime={e.at}
              className="text-muted-foreground text-xs tabular-nums"
              suppressHydrationWarning
            >
              {formatExact(e.at)}
            </time>
          </span>
          <span className="flex flex-wrap items-center gap-2">
            {e.decision.edited === true && <Badge tone="outline">Edited</Badge>}
            <Badge tone={effectTone(e.effect)}>{effectLabel(e.effect)}</Badge>
            <code className="text-muted-foreground text-xs" title={e.hash}>
              {e.hash.slice(0, 12)}
            </code>
          </span>
        </li>
      ))}
    </ol>
  );
}
