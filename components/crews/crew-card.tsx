import { Globe, Play, Workflow } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { RelativeTime } from "@/components/ui/relative-time";
import { StatusPill } from "@/components/ui/status-pill";
import type { CrewDef } from "@/lib/crew/schema";

export type LastRun = { status: string; created_at: string } | null;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

// One crew at a glance: what it does, what it needs, how its last run went, and a way to start one.
export function CrewCard({
  crew,
  lastRun,
  canStart = true,
}: {
  crew: CrewDef;
  lastRun?: LastRun;
  canStart?: boolean;
}) {
  const remote = crew.slug.startsWith("@");
  const href = `/crews/${crew.slug}`;
  const titleId = `crew-${crew.slug}-title`;
  return (
    <Card className="flex flex-col gap-3 p-4">
      <div className="flex items-start gap-2">
        <h2 id={titleId} className="m-0 min-w-0 flex-1 font-semibold text-base leading-6">
          <Link href={href} className="break-words text-foreground hover:underline">
            {crew.name}
          </Link>
        </h2>
        {remote && (
          <Badge tone="info">
            <Globe aria-hidden />
            Remote
          </Badge>
        )}
        {crew.flow && (
          <Badge tone="info">
            <Workflow aria-hidden />
            Flow
          </Badge>
        )}
      </div>
      {remote ? (
        <p className="min-w-0 break-words text-muted-foreground text-sm">
          Served by <code className="font-mono text-xs">{crew.source[0]}</code>
        </p>
      ) : (
        <CrewSummary crew={crew} />
      )}
      <div className="mt-auto flex flex-wrap items-center gap-2 border-t pt-3 text-xs">
        {lastRun ? (
          <span className="flex items-center gap-1.5 text-muted-foreground">
            <StatusPill status={lastRun.status} />
            <RelativeTime iso={lastRun.created_at} />
          </span>
        ) : lastRun === null ? (
          <span className="text-muted-foreground">No runs yet</span>
        ) : null}
        {canStart && (
          <Button asChild size="sm" variant="secondary" className="ml-auto">
            <Link href={href} aria-describedby={titleId}>
              <Play aria-hidden />
              Start run
            </Link>
          </Button>
        )}
      </div>
    </Card>
  );
}

/** A local crew: its description, size, whether it is reviewed, and its inputs. */
function CrewSummary({ crew }: { crew: CrewDef }) {
  return (
    <>
      {crew.description && (
        <p className="line-clamp-2 text-muted-foreground text-sm">{crew.description}</p>
      )}
      <p className="text-muted-foreground text-xs">
        {crew.flow
          ? `${plural(crew.tasks.length, "method")} · ${plural(Object.keys(crew.flow.crews).length, "crew and agent")}`
          : `${plural(crew.agents.length, "agent")} · ${plural(crew.tasks.length, "task")}`}
        {crew.tasks.some((t) => t.human_input) && " · reviewed"}
      </p>
      <div className="flex min-w-0 flex-wrap gap-1">
        {crew.inputs.length ? (
          crew.inputs.map((name) => (
            <code key={name} className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">
              {name}
            </code>
          ))
        ) : (
          <span className="text-muted-foreground text-xs">No inputs</span>
        )}
      </div>
    </>
  );
}
