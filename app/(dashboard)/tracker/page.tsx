import type { Metadata } from "next";
import { ErrorText } from "@/components/error-text";
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

const PRIORITY = ["none", "urgent", "high", "medium", "low"];

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
  return (
    <>
      <h1>Issues</h1>
      <p className="muted small">
        The embedded tracker that agents with <code>apps: [tracker]</code> use.{" "}
        <a href="/tracker/projects">Projects</a>
      </p>
      <nav aria-label="Teams" className="tabs">
        {teams.map((t) => (
          <a
            key={t.id}
            href={`/tracker?team=${t.key}`}
            aria-current={t.key === team ? "page" : undefined}
          >
            {t.name} ({t.key}) · {t.open}
          </a>
        ))}
      </nav>
      <form className="filters" method="get" aria-label="Filter issues">
        <input type="hidden" name="team" value={team ?? ""} />
        <div>
          <label htmlFor="f-q">Search</label>
          <input
            id="f-q"
            name="q"
            type="search"
            defaultValue={s.q}
            placeholder="title or description"
          />
        </div>
        <div>
          <label htmlFor="f-title">Title contains</label>
          <input id="f-title" name="title" defaultValue={s.title} />
        </div>
        <div>
          <label htmlFor="f-min">Number from</label>
          <input id="f-min" name="min" inputMode="numeric" defaultValue={s.min} />
        </div>
        <div>
          <label htmlFor="f-max">Number to</label>
          <input id="f-max" name="max" inputMode="numeric" defaultValue={s.max} />
        </div>
        <div>
          <label htmlFor="f-project">Project</label>
          <input id="f-project" name="project" defaultValue={s.project} />
        </div>
        <div>
          <label htmlFor="f-after">Created after</label>
          <input id="f-after" name="after" type="date" defaultValue={s.after} />
        </div>
        <div>
          <label htmlFor="f-archived">Show</label>
          <select id="f-archived" name="archived" defaultValue={s.archived ?? ""}>
            <option value="">open</option>
            <option value="1">archived</option>
          </select>
        </div>
        <div className="filter-actions">
          <button type="submit" className="primary">
            Filter
          </button>
        </div>
      </form>
      <ErrorText>{error}</ErrorText>
      {!error && issues.length === 0 && <p className="muted">No issues match.</p>}
      {issues.length > 0 && (
        <div className="table-wrap">
          <table aria-label="Issues">
            <thead>
              <tr>
                <th scope="col">Issue</th>
                <th scope="col">Title</th>
                <th scope="col">State</th>
                <th scope="col">Priority</th>
                <th scope="col">Assignee</th>
                <th scope="col">Project</th>
              </tr>
            </thead>
            <tbody>
              {issues.map((r) => (
                <tr key={r.identifier}>
                  <td>
                    <a href={`/tracker/issues/${r.identifier}`}>{r.identifier}</a>
                  </td>
                  <td>{r.title}</td>
                  <td>{r.state.name}</td>
                  <td>{PRIORITY[r.priority] ?? r.priority}</td>
                  <td>{r.assignee?.name ?? ""}</td>
                  <td>{r.project?.name ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
