import Link from "next/link";
import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { RelativeTime } from "@/components/ui/relative-time";
import type { issueDetail } from "@/lib/tracker/embedded/browse";

type Detail = NonNullable<Awaited<ReturnType<typeof issueDetail>>>;

const PRIORITY = ["No priority", "Urgent", "High", "Medium", "Low"];

/** One of the issue page's cards, named by its title. */
export function IssueSection({
  id,
  title,
  className,
  children,
}: {
  id: string;
  title: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Card aria-labelledby={id} className={className}>
      <CardHeader>
        <CardTitle id={id}>{title}</CardTitle>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

/** Team / identifier, and the parent of a sub-issue. */
export function IssueCrumbs({ detail }: { detail: Detail }) {
  const { issue } = detail;
  return (
    <nav
      aria-label="Breadcrumb"
      className="mb-2 flex flex-wrap items-center gap-1.5 text-muted-foreground text-sm"
    >
      <Link href={`/tracker?team=${issue.team.key}`} className="text-link hover:underline">
        {issue.team.name}
      </Link>
      <span aria-hidden>/</span>
      <span className="font-mono text-xs">{issue.identifier}</span>
      {detail.parent && (
        <>
          <span aria-hidden>·</span> sub-issue of{" "}
          <Link
            href={`/tracker/issues/${detail.parent.identifier}`}
            className="font-mono text-link text-xs hover:underline"
          >
            {detail.parent.identifier}
          </Link>
        </>
      )}
    </nav>
  );
}

export function SubIssues({ subIssues }: { subIssues: Detail["subIssues"] }) {
  if (subIssues.length === 0) return <p className="text-muted-foreground text-sm">None.</p>;
  return (
    <ul className="grid gap-1.5 text-sm">
      {subIssues.map((s) => (
        <li key={s.identifier} className="flex gap-2">
          <Link
            href={`/tracker/issues/${s.identifier}`}
            className="shrink-0 whitespace-nowrap font-mono text-link text-xs leading-5 hover:underline"
          >
            {s.identifier}
          </Link>
          <span>{String(s.title)}</span>
        </li>
      ))}
    </ul>
  );
}

export function IssueHistory({ history }: { history: Detail["history"] }) {
  return (
    <ol className="grid gap-2 border-l pl-4 text-sm">
      {history.map((h) => (
        <li key={`${h.at}-${h.action}`} className="grid gap-0.5">
          <span>
            {h.action.replaceAll("_", " ")}
            {h.actor && <span className="text-muted-foreground"> by {h.actor}</span>}
            {h.execution_id && h.crew && (
              <>
                {" "}
                in{" "}
                <Link
                  href={`/crews/${h.crew}/runs/${h.execution_id}`}
                  className="text-link underline underline-offset-2"
                >
                  a run of {h.crew}
                </Link>
              </>
            )}
          </span>
          <RelativeTime iso={h.at} className="text-muted-foreground text-xs" />
        </li>
      ))}
    </ol>
  );
}

/** State, priority, assignee, project, due date and labels, as a definition list. */
export function IssueFacts({ issue }: { issue: Detail["issue"] }) {
  const facts: [string, ReactNode][] = [
    [
      "State",
      <span key="s" className="flex flex-wrap items-center gap-1.5">
        {issue.state.name}
        {issue.archivedAt && <Badge tone="neutral">Archived</Badge>}
      </span>,
    ],
    ["Priority", PRIORITY[Number(issue.priority)] ?? String(issue.priority)],
    ["Assignee", issue.assignee?.name ?? "—"],
    ["Project", issue.project?.name ?? "—"],
    ["Due", issue.dueDate ?? "—"],
    ["Labels", issue.labels.map((l) => l.name).join(", ") || "—"],
  ];
  return (
    <dl className="grid grid-cols-[6rem_1fr] gap-x-3 gap-y-2 text-sm">
      {facts.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-muted-foreground">{k}</dt>
          <dd className="min-w-0 break-words">{v}</dd>
        </div>
      ))}
    </dl>
  );
}
