import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Markdown } from "@/components/markdown";
import { requireUser } from "@/lib/auth/require-user";
import { getDb } from "@/lib/db";
import { issueDetail } from "@/lib/tracker/embedded/browse";

export const dynamic = "force-dynamic";

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
  return (
    <>
      <p className="muted small">
        <a href={`/tracker?team=${issue.team.key}`}>{issue.team.name}</a> · {issue.identifier}
        {detail.parent && (
          <>
            {" "}
            · sub-issue of{" "}
            <a href={`/tracker/issues/${detail.parent.identifier}`}>{detail.parent.identifier}</a>
          </>
        )}
      </p>
      <h1>{issue.title}</h1>
      <dl className="inputs">
        <div>
          <dt>State</dt>
          <dd>
            {issue.state.name}
            {issue.archivedAt && <span className="badge">archived</span>}
          </dd>
        </div>
        <div>
          <dt>Priority</dt>
          <dd>{issue.priority}</dd>
        </div>
        <div>
          <dt>Assignee</dt>
          <dd>{issue.assignee?.name ?? "—"}</dd>
        </div>
        <div>
          <dt>Project</dt>
          <dd>{issue.project?.name ?? "—"}</dd>
        </div>
        <div>
          <dt>Due</dt>
          <dd>{issue.dueDate ?? "—"}</dd>
        </div>
        <div>
          <dt>Labels</dt>
          <dd>{issue.labels.map((l) => l.name).join(", ") || "—"}</dd>
        </div>
      </dl>
      {issue.description && (
        <section className="card">
          <Markdown text={issue.description} />
        </section>
      )}
      <h2>Sub-issues</h2>
      {detail.subIssues.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <ul>
          {detail.subIssues.map((s) => (
            <li key={s.identifier}>
              <a href={`/tracker/issues/${s.identifier}`}>{s.identifier}</a> {String(s.title)}
            </li>
          ))}
        </ul>
      )}
      <h2>History</h2>
      <ol>
        {detail.history.map((h) => (
          <li key={`${h.at}-${h.action}`}>
            <time dateTime={h.at}>{new Date(h.at).toLocaleString()}</time> —{" "}
            {h.action.replaceAll("_", " ")}
            {h.actor && ` by ${h.actor}`}
            {h.execution_id && h.crew && (
              <>
                {" "}
                in <a href={`/crews/${h.crew}/runs/${h.execution_id}`}>a run of {h.crew}</a>
              </>
            )}
          </li>
        ))}
      </ol>
    </>
  );
}
