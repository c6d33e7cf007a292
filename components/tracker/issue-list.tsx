import Link from "next/link";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import * as T from "@/components/ui/table";
import type { listIssues, listTeams } from "@/lib/tracker/embedded/browse";

type Issue = Awaited<ReturnType<typeof listIssues>>[number];
type Team = Awaited<ReturnType<typeof listTeams>>[number];

const PRIORITY = ["No priority", "Urgent", "High", "Medium", "Low"];
const STATE_TONE: Record<string, BadgeTone> = {
  backlog: "neutral",
  unstarted: "neutral",
  started: "info",
  completed: "success",
  canceled: "outline",
};

/** The teams as tabs, each with its count of open issues. */
export function TeamTabs({ teams, team }: { teams: Team[]; team: string | undefined }) {
  if (teams.length === 0) return null;
  return (
    <nav
      aria-label="Teams"
      className="mb-4 flex max-w-full gap-1 overflow-x-auto rounded-lg bg-muted p-1"
    >
      {teams.map((t) => (
        <Link
          key={t.id}
          href={`/tracker?team=${t.key}`}
          aria-current={t.key === team ? "page" : undefined}
          className="whitespace-nowrap rounded-md px-3 py-1.5 font-medium text-muted-foreground text-sm hover:text-foreground aria-[current=page]:bg-card aria-[current=page]:text-foreground aria-[current=page]:shadow-xs"
        >
          {t.name} <span className="text-muted-foreground">({t.key})</span>{" "}
          <span className="tabular-nums">· {t.open}</span>
        </Link>
      ))}
    </nav>
  );
}

/** The issues: a card each on a phone (six columns do not fit 390 px), a table from md up. */
export function IssueList({ issues }: { issues: Issue[] }) {
  if (issues.length === 0) return null;
  return (
    <>
      <IssueCards issues={issues} />
      <IssueTable issues={issues} />
    </>
  );
}

function IssueCards({ issues }: { issues: Issue[] }) {
  return (
    <ul aria-label="Issues" className="m-0 grid list-none gap-2 p-0 md:hidden">
      {issues.map((r) => (
        <li key={r.identifier} className="min-w-0 rounded-lg border bg-card p-3">
          <div className="flex items-start justify-between gap-2">
            <Link
              href={`/tracker/issues/${r.identifier}`}
              className="min-w-0 break-words font-medium text-link hover:underline"
            >
              <span className="mr-1.5 font-mono text-xs">{r.identifier}</span>
              {r.title}
            </Link>
            <Badge tone={STATE_TONE[String(r.state.type)] ?? "neutral"}>{r.state.name}</Badge>
          </div>
          <p className="m-0 mt-1.5 text-muted-foreground text-xs">
            {[
              PRIORITY[r.priority] ?? r.priority,
              r.assignee?.name ?? "Unassigned",
              r.project?.name ?? "No project",
            ].join(" · ")}
          </p>
        </li>
      ))}
    </ul>
  );
}

function IssueTable({ issues }: { issues: Issue[] }) {
  return (
    <Card className="hidden md:block">
      <T.Table className="relative" aria-label="Issues">
        <T.TableHeader>
          <T.TableRow>
            <T.TableHead scope="col">Issue</T.TableHead>
            <T.TableHead scope="col">Title</T.TableHead>
            <T.TableHead scope="col">State</T.TableHead>
            <T.TableHead scope="col">Priority</T.TableHead>
            <T.TableHead scope="col">Assignee</T.TableHead>
            <T.TableHead scope="col">Project</T.TableHead>
          </T.TableRow>
        </T.TableHeader>
        <T.TableBody>
          {issues.map((r) => (
            <T.TableRow key={r.identifier} className="hover:bg-muted/50">
              <T.TableCell className="whitespace-nowrap">
                <Link
                  href={`/tracker/issues/${r.identifier}`}
                  className="font-mono text-link text-xs hover:underline"
                >
                  {r.identifier}
                </Link>
              </T.TableCell>
              <T.TableCell className="min-w-56 font-medium">{r.title}</T.TableCell>
              <T.TableCell>
                <Badge tone={STATE_TONE[String(r.state.type)] ?? "neutral"}>{r.state.name}</Badge>
              </T.TableCell>
              <T.TableCell className="whitespace-nowrap">
                {PRIORITY[r.priority] ?? r.priority}
              </T.TableCell>
              <T.TableCell className="whitespace-nowrap">
                {r.assignee?.name ?? <span className="text-muted-foreground">—</span>}
              </T.TableCell>
              <T.TableCell className="whitespace-nowrap">
                {r.project?.name ?? <span className="text-muted-foreground">—</span>}
              </T.TableCell>
            </T.TableRow>
          ))}
        </T.TableBody>
      </T.Table>
    </Card>
  );
}
