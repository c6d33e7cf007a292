import { ListTodo } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/shell/page-header";
import { formulaFrom, type IssueSearch, isFiltered } from "@/components/tracker/issue-filter";
import { IssueFilters } from "@/components/tracker/issue-filters";
import { IssueList, TeamTabs } from "@/components/tracker/issue-list";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { requireUser } from "@/lib/auth/require-user";
import { getDb } from "@/lib/db";
import { listIssues, listTeams } from "@/lib/tracker/embedded/browse";
import { TrackerError } from "@/lib/tracker/errors";

export const metadata: Metadata = { title: "Issues" };
export const dynamic = "force-dynamic";

export default async function TrackerPage({
  searchParams,
}: {
  searchParams: Promise<IssueSearch>;
}) {
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
  const filtered = isFiltered(s);
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
      <TeamTabs teams={teams} team={team} />
      <IssueFilters search={s} team={team} filtered={filtered} />
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
      <IssueList issues={issues} />
    </>
  );
}
