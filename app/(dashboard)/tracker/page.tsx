import { ListTodo } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/shell/page-header";
import { LiveFilterForm } from "@/components/tracker/live-filter-form";
import { Alert } from "@/components/ui/alert";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Input, Label, Select } from "@/components/ui/input";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "@/components/ui/table";
import { requireUser } from "@/lib/auth/require-user";
import { getDb } from "@/lib/db";
import { listIssues, listTeams } from "@/lib/tracker/embedded/browse";
import { TrackerError } from "@/lib/tracker/errors";

export const metadata: Metadata = { title: "Issues" };
export const dynamic = "force-dynamic";

type Search = {
  team?: string;
  q?: string;
  title?: string;
  min?: string;
  max?: string;
  project?: string;
  after?: string;
  archived?: string;
};

const PRIORITY = ["No priority", "Urgent", "High", "Medium", "Low"];
const STATE_TONE: Record<string, BadgeTone> = {
  backlog: "neutral",
  unstarted: "neutral",
  started: "info",
  completed: "success",
  canceled: "outline",
};

function FilterField({
  id,
  label,
  children,
}: {
  id: string;
  label: string;
  children: React.ReactNode;
}) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children}
    </div>
  );
}

// The form's fields become one AND group of the same filter formula agents send.
function formulaFrom(s: Search) {
  const conditions = [
    s.title && { field: "title", operator: "$stringContains", value: s.title },
    s.min && { field: "number", operator: "$numberGreaterThanOrEqualTo", value: s.min },
    s.max && { field: "number", operator: "$numberLessThanOrEqualTo", value: s.max },
    s.project && { field: "project", operator: "$stringContains", value: s.project },
    s.after && { field: "createdAt", operator: "$dateTimeAfter", value: s.after },
  ].filter(Boolean);
  return conditions.length
    ? { operator: "OR", conditions: [{ operator: "AND", conditions }] }
    : undefined;
}

export default async function TrackerPage({ searchParams }: { searchParams: Promise<Search> }) {
  const { principal } = await requireUser();
  const s = await searchParams;
  const db = await getDb();
  const teams = await listTeams(db, principal);
  const team = s.team ?? teams[0]?.key;
  let issues: Awaited<ReturnType<typeof listIssues>> = [];
  let error: string | null = null;
  try {
    issues = await listIssues(db, principal, {
      teamKey: team,
      q: s.q,
      formula: formulaFrom(s),
      archived: s.archived === "1",
    });
  } catch (err) {
    if (!(err instanceof TrackerError)) throw err;
    error = err.message;
  }
  const filtered = Boolean(s.q || s.title || s.min || s.max || s.project || s.after);
  return (
    <>
      <PageHeader
        title="Issues"
        description={
          <>
            The embedded tracker that agents with <code className="font-mono">apps: [tracker]</code>{" "}
            use.
          </>
        }
        actions={
          <Button asChild>
            <Link href="/tracker/projects">Projects</Link>
          </Button>
        }
      />
      {teams.length > 0 && (
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
      )}
      <Card className="mb-4 p-4">
        <LiveFilterForm
          label="Filter issues"
          className="grid grid-cols-2 items-end gap-3 md:grid-cols-4"
        >
          <input type="hidden" name="team" value={team ?? ""} />
          <div className="col-span-2">
            <FilterField id="f-q" label="Search">
              <Input
                id="f-q"
                name="q"
                type="search"
                defaultValue={s.q}
                placeholder="Title or description"
              />
            </FilterField>
          </div>
          <div className="col-span-2">
            <FilterField id="f-title" label="Title contains">
              <Input id="f-title" name="title" defaultValue={s.title} />
            </FilterField>
          </div>
          <FilterField id="f-min" label="Number from">
            <Input id="f-min" name="min" inputMode="numeric" defaultValue={s.min} />
          </FilterField>
          <FilterField id="f-max" label="Number to">
            <Input id="f-max" name="max" inputMode="numeric" defaultValue={s.max} />
          </FilterField>
          <FilterField id="f-project" label="Project">
            <Input id="f-project" name="project" defaultValue={s.project} />
          </FilterField>
          <FilterField id="f-after" label="Created after">
            <Input id="f-after" name="after" type="date" defaultValue={s.after} />
          </FilterField>
          <FilterField id="f-archived" label="Show">
            <Select id="f-archived" name="archived" defaultValue={s.archived ?? ""}>
              <option value="">Open</option>
              <option value="1">Archived</option>
            </Select>
          </FilterField>
          <div className="flex gap-2">
            <Button type="submit" variant="primary" className="group-data-[live]:hidden">
              Filter
            </Button>
            {filtered && (
              <Button asChild variant="ghost">
                <Link href={`/tracker?team=${team ?? ""}`}>Clear</Link>
              </Button>
            )}
          </div>
        </LiveFilterForm>
      </Card>
      {error && (
        <Alert tone="danger" title="The filter could not be applied" className="mb-4">
          {error}
        </Alert>
      )}
      {!error && issues.length === 0 && (
        <EmptyState
          icon={ListTodo}
          title={filtered ? "No issues match these filters" : "No issues yet"}
        >
          {filtered
            ? "Loosen a filter or clear them all."
            : "Agents file issues here when a crew runs with the tracker app."}
        </EmptyState>
      )}
      {issues.length > 0 && (
        // On a phone, a card per issue: the table's six columns do not fit 390 px.
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
      )}
      {issues.length > 0 && (
        <Card className="hidden md:block">
          <Table className="relative" aria-label="Issues">
            <TableHeader>
              <TableRow>
                <TableHead scope="col">Issue</TableHead>
                <TableHead scope="col">Title</TableHead>
                <TableHead scope="col">State</TableHead>
                <TableHead scope="col">Priority</TableHead>
                <TableHead scope="col">Assignee</TableHead>
                <TableHead scope="col">Project</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {issues.map((r) => (
                <TableRow key={r.identifier} className="hover:bg-muted/50">
                  <TableCell className="whitespace-nowrap">
                    <Link
                      href={`/tracker/issues/${r.identifier}`}
                      className="font-mono text-link text-xs hover:underline"
                    >
                      {r.identifier}
                    </Link>
                  </TableCell>
                  <TableCell className="min-w-56 font-medium">{r.title}</TableCell>
                  <TableCell>
                    <Badge tone={STATE_TONE[String(r.state.type)] ?? "neutral"}>
                      {r.state.name}
                    </Badge>
                  </TableCell>
                  <TableCell className="whitespace-nowrap">
                    {PRIORITY[r.priority] ?? r.priority}
                  </TableCell>
                  <TableCell className="whitespace-nowrap">
                    {r.assignee?.name ?? <span className="text-muted-foreground">—</span>}
                  </TableCell>
                  <TableCell className="whitespace-nowrap">
                    {r.project?.name ?? <span className="text-muted-foreground">—</span>}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Card>
      )}
    </>
  );
}
