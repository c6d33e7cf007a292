import { beforeAll, describe, expect, it } from "vitest";
import { executeAction } from "@/lib/tracker/actions";
import { listIssues } from "@/lib/tracker/embedded/browse";
import { TrackerError } from "@/lib/tracker/errors";
import { seedDemoWorkspace } from "@/lib/tracker/seed";
import { embeddedDbForFile } from "../support/embedded-db";
import { ORG } from "../support/principals";

// Descriptions are Markdown someone renders later, titles and names are shown everywhere: an
// integration token or an agent's tool writes them, so each has a length cap, 422 naming the
// field past it (descriptions 65,536 characters, titles and project names 1,000).
const embedded = embeddedDbForFile("tracker-text-limits");
let teamId = "";
let issueId = "";

async function refusal(name: string, params: Record<string, unknown>): Promise<TrackerError> {
  try {
    await executeAction(embedded.db, name, params);
  } catch (err) {
    if (err instanceof TrackerError) return err;
    throw err;
  }
  throw new Error(`${name} was accepted`);
}

beforeAll(async () => {
  await seedDemoWorkspace(embedded.db);
  const [issue] = await listIssues(embedded.db, ORG, {});
  if (!issue) throw new Error("the demo workspace has no issue");
  teamId = issue.team.id;
  issueId = issue.id;
});

const long = "a".repeat(65_537);

describe("tracker text fields", () => {
  it.each([
    ["create_issue", () => ({ teamId, title: "t", description: long }), "description"],
    ["update_issue", () => ({ issueId, description: long }), "description"],
    [
      "create_sub_issue",
      () => ({ parentId: issueId, teamId, title: "t", description: long }),
      "description",
    ],
    [
      "create_project",
      () => ({ teamIds: teamId, projectName: "p", description: long }),
      "description",
    ],
    ["create_issue", () => ({ teamId, title: "t".repeat(1_001) }), "title"],
    ["update_issue", () => ({ issueId, title: "t".repeat(1_001) }), "title"],
    ["create_project", () => ({ teamIds: teamId, projectName: "p".repeat(1_001) }), "projectName"],
  ])("%s refuses an overlong %#: 422 naming the field", async (name, params, field) => {
    const err = await refusal(name, params());
    expect(err.status).toBe(422);
    expect(err.message).toMatch(new RegExp(`^${field}: `));
  });

  it("refuses a project description given in additionalFields the same way", async () => {
    const err = await refusal("create_project", {
      teamIds: teamId,
      projectName: "p",
      additionalFields: { description: long },
    });
    expect(err.status).toBe(422);
    expect(err.message).toMatch(/^additionalFields\.description: /);
  });

  it("keeps a description of exactly 65,536 characters", async () => {
    const description = "a".repeat(65_536);
    const created = await executeAction(embedded.db, "create_issue", {
      teamId,
      title: "at the cap",
      description,
    });
    expect(JSON.stringify(created)).toContain(description);
  });
});
