import { beforeAll, describe, expect, it } from "vitest";
import { listIssues } from "@/lib/tracker/embedded/browse";
import { createIssue, searchIssues } from "@/lib/tracker/embedded/issues";
import { TrackerError } from "@/lib/tracker/errors";
import { seedDemoWorkspace } from "@/lib/tracker/seed";
import { embeddedDbForFile } from "../support/embedded-db";
import { ORG } from "../support/principals";

// A text search costs the term's length times the text it reads, both chosen by callers: the
// term is at most 200 characters (422 naming it past that), and the search reads the first
// 16 KB of a title and a description, so a word only past that is not found.
const embedded = embeddedDbForFile("tracker-search-limits");

async function refusal(run: () => Promise<unknown>): Promise<TrackerError> {
  try {
    await run();
  } catch (err) {
    if (err instanceof TrackerError) return err;
    throw err;
  }
  throw new Error("the search was accepted");
}

beforeAll(async () => {
  const db = embedded.db;
  await seedDemoWorkspace(db);
  const [team] = (await listIssues(db, ORG, {})).map((i) => i.team.id);
  if (!team) throw new Error("the demo workspace has no issue");
  for (const { title, description } of [
    { title: "early", description: `needle ${"x".repeat(20_000)}` },
    { title: "late", description: `${"x".repeat(16_384)} needle` },
  ])
    await createIssue(db, { teamId: team, title, description }, {});
});

describe("the tracker's text search", () => {
  it("refuses a queryTerm over 200 characters with a 422 naming it", async () => {
    const err = await refusal(() => searchIssues(embedded.db, { queryTerm: "n".repeat(201) }));
    expect(err.status).toBe(422);
    expect(err.message).toMatch(/^queryTerm: at most 200 characters/);
  });

  it("refuses the Issues page's search over 200 characters with a 422 naming it", async () => {
    const err = await refusal(() => listIssues(embedded.db, ORG, { q: "n".repeat(201) }));
    expect(err.status).toBe(422);
    expect(err.message).toMatch(/^q: at most 200 characters/);
  });

  it("reads the first 16 KB of a description, in the actions and on the page", async () => {
    const { issues } = await searchIssues(embedded.db, { queryTerm: " needle " });
    expect(issues.map((i) => i.title)).toEqual(["early"]);
    const listed = await listIssues(embedded.db, ORG, { q: "needle" });
    expect(listed.map((i) => i.title)).toEqual(["early"]);
  });
});
