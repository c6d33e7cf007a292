import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { LazyMarkdown } from "@/components/run/lazy-markdown";
import { PageHeader } from "@/components/shell/page-header";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { RelativeTime } from "@/components/ui/relative-time";
import { requireUser } from "@/lib/auth/require-user";
import { getDb } from "@/lib/db";
import { issueDetail } from "@/lib/tracker/embedded/browse";

export const dynamic = "force-dynamic";

const PRIORITY = ["No priority", "Urgent", "High", "Medium", "Low"];

export async function generateMetadata({
  params,
}: {
  params: Promise<{ identifier: string }>;
}): Promise<Metadata> {
  await requireUser();
  return { title: (await params).identifier };
}

export default async function IssuePage({ params }: { params: Promise<{ identifier: string }> }) {
  const { principal } = await requireUser();
  const detail = await issueDetail(await getDb(), principal, (await params).identifier);
  if (!detail) notFound();
  const { issue } = detail;
  const facts: [string, React.ReactNode][] = [
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
    <>
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
      <PageHeader title={issue.title} />
      <div className="grid gap-6 lg:grid-cols-[1fr_18rem]">
        <div className="grid min-w-0 content-start gap-6">
          <Card aria-labelledby="issue-description">
            <CardHeader>
              <CardTitle id="issue-description">Description</CardTitle>
            </CardHeader>
            <CardContent>
              {/* Formatted in the browser (and only a bounded prefix): never on the server. */}
              {issue.description ? (
                <LazyMarkdown text={issue.description} />
              ) : (
                <p className="text-muted-foreground text-sm">No description.</p>
              )}
            </CardContent>
          </Card>
          <Card aria-labelledby="issue-subissues">
            <CardHeader>
              <CardTitle id="issue-subissues">
                Sub-issues{detail.more.subIssues && " (the first 200)"}
              </CardTitle>
            </CardHeader>
            <CardContent>
              {detail.subIssues.length === 0 ? (
                <p className="text-muted-foreground text-sm">None.</p>
              ) : (
                <ul className="grid gap-1.5 text-sm">
                  {detail.subIssues.map((s) => (
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
              )}
            </CardContent>
          </Card>
          <Card aria-labelledby="issue-history">
            <CardHeader>
              <CardTitle id="issue-history">
                History{detail.more.history && " (the latest 200 changes)"}
              </CardTitle>
            </CardHeader>
            <CardContent>
              <ol className="grid gap-2 border-l pl-4 text-sm">
                {detail.history.map((h) => (
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
            </CardContent>
          </Card>
        </div>
        <Card aria-labelledby="issue-details" className="content-start self-start">
          <CardHeader>
            <CardTitle id="issue-details">Details</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-[6rem_1fr] gap-x-3 gap-y-2 text-sm">
              {facts.map(([k, v]) => (
                <div key={k} className="contents">
                  <dt className="text-muted-foreground">{k}</dt>
                  <dd className="min-w-0 break-words">{v}</dd>
                </div>
              ))}
            </dl>
          </CardContent>
        </Card>
      </div>
    </>
  );
}
