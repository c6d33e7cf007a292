import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/types";
import { issueDetail, listIssues, listProjects } from "@/lib/tracker/embedded/browse";
import { seedDemoWorkspace } from "@/lib/tracker/seed";
import { DB_KINDS, openTestDb } from "../support/both-dbs";
import { ORG } from "../support/principals";

// The tracker's pages list at most 200 of what an agent may add without end: an issue's
// sub-issues (the first by number), its history (the latest, oldest first) and the projects
// (the newest), each saying when there are more.
describe.each(DB_KINDS)("the tracker's pages on the %s database", (kind) => {
  let db: Db;
  let close: () => Promise<void>;
  let parent = "";

  beforeAll(async () => {
    ({ db, close } = await openTestDb(kind));
    await seedDemoWorkspace(db);
    const [issue] = await listIssues(db, ORG, {});
    if (!issue) throw new Error("the demo workspace has no issue");
    parent = issue.identifier;
    await db.query(
      `INSERT INTO tracker_issues (id, team_id, number, identifier, title, state_id, parent_id)
       SELECT gen_random_uuid(), p.team_id, 1000 + g, t.key || '-' || (1000 + g), 'sub ' || g, p.state_id, p.id
         FROM generate_series(1, 205) g, tracker_issues p JOIN tracker_teams t ON t.id = p.team_id
        WHERE p.id = $1`,
      [issue.id],
    );
    await db.query(
      `INSERT INTO tracker_history (issue_id, action, changes)
       SELECT $1, 'updated', jsonb_build_object('n', g) FROM generate_series(1, 205) g`,
      [issue.id],
    );
    await db.query(
      `INSERT INTO tracker_projects (id, name, created_at)
       SELECT gen_random_uuid(), 'project ' || g, now() + g * interval '1 second'
         FROM generate_series(1, 205) g`,
    );
  }, 60_000);
  afterAll(() => close());

  it("shows an issue's first 200 sub-issues and latest 200 changes", async () => {
    const detail = await issueDetail(db, ORG, parent);
    expect(detail?.subIssues).toHaveLength(200);
    expect(detail?.subIssues[0]?.title).toBe("sub 1");
    expect(detail?.history).toHaveLength(200);
    expect(detail?.history.at(-1)?.changes).toEqual({ n: 205 });
    expect(detail?.more).toEqual({ subIssues: true, history: true });
  });

  it("shows the newest 200 projects", async () => {
    const { projects, more } = await listProjects(db, ORG);
    expect(projects).toHaveLength(200);
    expect(projects[0]?.name).toBe("project 205");
    expect(more).toBe(true);
  });
});
