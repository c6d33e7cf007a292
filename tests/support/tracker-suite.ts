import { beforeAll, describe, expect, it } from "vitest";
import { call, crewClient, type Json } from "./api";
import { TEST_CREW_TOKEN, TEST_INTEGRATION_TOKEN, tokenCli } from "./harness";

export type SuiteContext = { baseUrl: string; serverEnv: Record<string, string> };

/**
 * The 13 tracker actions over CrewAI's platform-tools transport: every failure cause of the
 * integration document, and the happy paths — the same table for every backend.
 */
export function trackerSuite(ctx: () => SuiteContext) {
  const act = (name: string, integration: unknown, token = TEST_INTEGRATION_TOKEN) =>
    call(ctx().baseUrl, "POST", `/api/integrations/actions/${name}/execute`, {
      token,
      body: { integration },
    });
  const actWithout = (name: string, integration: unknown) =>
    call(ctx().baseUrl, "POST", `/api/integrations/actions/${name}/execute`, {
      body: { integration },
    });
  const NO_SUCH = "00000000-0000-4000-8000-00000000abcd";

  let eng: Json;
  let ops: Json;

  beforeAll(async () => {
    const r = await act("search_teams", {});
    expect(r.status, r.text).toBe(200);
    eng = r.json.teams.find((t: Json) => t.key === "ENG");
    ops = r.json.teams.find((t: Json) => t.key === "OPS");
  });

  async function newIssue(extra: Record<string, unknown> = {}, team: Json = eng) {
    const r = await act("create_issue", {
      teamId: team.id,
      title: `Issue ${Math.random()}`,
      ...extra,
    });
    expect(r.status, r.text).toBe(200);
    return r.json.issue;
  }

  describe("the transport", () => {
    it("lists the actions with JSON Schema parameters", async () => {
      const r = await call(ctx().baseUrl, "GET", "/api/integrations/actions?apps=tracker", {
        token: TEST_INTEGRATION_TOKEN,
      });
      expect(r.status).toBe(200);
      const names = r.json.actions.tracker.map((a: Json) => a.name);
      expect(names).toHaveLength(13);
      const create = r.json.actions.tracker.find((a: Json) => a.name === "create_issue");
      expect(create.parameters.required).toEqual(["teamId", "title"]);
      const one = await call(
        ctx().baseUrl,
        "GET",
        "/api/integrations/actions?apps=linear/create_issue",
        {
          token: TEST_INTEGRATION_TOKEN,
        },
      );
      expect(one.json.actions["linear/create_issue"].map((a: Json) => a.name)).toEqual([
        "create_issue",
      ]);
    });
    it("needs the integration token", async () => {
      for (const r of [
        await actWithout("search_teams", {}),
        await act("search_teams", {}, "wrong-token-0123456789"),
        await act("search_teams", {}, TEST_CREW_TOKEN),
      ]) {
        expect(r.status).toBe(401);
        expect(r.json.error.code).toBe("permission_denied");
      }
      expect((await call(ctx().baseUrl, "GET", "/api/integrations/actions")).status).toBe(401);
    });
  });

  describe("permissions", () => {
    it("a read-only integration token may search but not change anything (403 permission_denied)", async () => {
      const readOnly = (await tokenCli(["create", "--integration", "--read-only"], ctx().serverEnv))
        .token as string;
      expect(readOnly).toMatch(/^cdi_/);
      expect((await act("search_teams", {}, readOnly)).status).toBe(200);
      const denied = await act("create_issue", { teamId: eng.id, title: "x" }, readOnly);
      expect(denied.status).toBe(403);
      expect(denied.json.error.code).toBe("permission_denied");
      expect(denied.json.error.message).toMatch(/only read/);
      const writer = await tokenCli(["create", "--integration"], ctx().serverEnv);
      expect(
        (await act("create_issue", { teamId: eng.id, title: "allowed" }, writer.token)).status,
      ).toBe(200);
      await tokenCli(["revoke", writer.id as string], ctx().serverEnv);
      expect((await act("search_teams", {}, writer.token)).status).toBe(401);
    });
  });

  describe("failures: code, status and a message that says how to fix it", () => {
    const cases: [string, () => Promise<[string, unknown]>, number, string, RegExp?][] = [
      [
        "malformed team id",
        async () => ["create_issue", { teamId: "abc", title: "x" }],
        400,
        "invalid_id",
        /UUID/,
      ],
      [
        "unknown team id",
        async () => ["create_issue", { teamId: NO_SUCH, title: "x" }],
        404,
        "not_found",
        /search_teams/,
      ],
      [
        "missing title",
        async () => ["create_issue", { teamId: eng.id }],
        400,
        "validation_error",
        /title/,
      ],
      [
        "a status of another team",
        async () => ["create_issue", { teamId: eng.id, title: "x", statusId: ops.states[0].id }],
        422,
        "invalid_status",
        /Todo/,
      ],
      [
        "priority out of range",
        async () => ["create_issue", { teamId: eng.id, title: "x", priority: "7" }],
        422,
        "invalid_priority",
        /0 .* 4/,
      ],
      [
        "priority not an integer",
        async () => ["create_issue", { teamId: eng.id, title: "x", priority: "high" }],
        422,
        "invalid_priority",
      ],
      [
        "a malformed date",
        async () => ["create_issue", { teamId: eng.id, title: "x", dueDate: "31/12/2026" }],
        400,
        "invalid_date",
        /YYYY-MM-DD/,
      ],
      [
        "an impossible date",
        async () => ["create_issue", { teamId: eng.id, title: "x", dueDate: "2026-02-30" }],
        400,
        "invalid_date",
      ],
      [
        "a label that does not exist",
        async () => [
          "create_issue",
          { teamId: eng.id, title: "x", additionalFields: { labelIds: [NO_SUCH] } },
        ],
        422,
        "unknown_label",
      ],
      [
        "a custom field that does not exist",
        async () => [
          "create_issue",
          { teamId: eng.id, title: "x", additionalFields: { storyPoints: 3 } },
        ],
        422,
        "unknown_field",
        /assigneeId, labelIds/,
      ],
      [
        "an unknown cycle",
        async () => ["create_issue", { teamId: eng.id, title: "x", cycleId: NO_SUCH }],
        404,
        "not_found",
      ],
      [
        "an unknown assignee",
        async () => [
          "create_issue",
          { teamId: eng.id, title: "x", additionalFields: { assigneeId: NO_SUCH } },
        ],
        404,
        "not_found",
      ],
      [
        "an identifier not KEY-number",
        async () => ["get_issue_by_issue_identifier", { externalId: "ENG_42" }],
        400,
        "invalid_identifier",
        /ENG-42/,
      ],
      [
        "an unknown identifier",
        async () => ["get_issue_by_issue_identifier", { externalId: "ENG-99999" }],
        404,
        "not_found",
      ],
      [
        "a malformed issue id",
        async () => ["get_issue_by_id", { issueId: "ENG-1" }],
        400,
        "invalid_id",
      ],
      [
        "an unknown issue id",
        async () => ["update_issue", { issueId: NO_SUCH, title: "x" }],
        404,
        "not_found",
      ],
      ["an empty search", async () => ["search_issue", { queryTerm: "   " }], 400, "empty_query"],
      [
        "a filter that is not OR of AND",
        async () => [
          "search_issue",
          { queryTerm: "a", issueFilterFormula: { operator: "AND", conditions: [] } },
        ],
        400,
        "invalid_filter",
        /OR of AND/,
      ],
      [
        "a filter on an unknown field",
        async () => [
          "search_issue",
          {
            queryTerm: "a",
            issueFilterFormula: {
              operator: "OR",
              conditions: [
                {
                  operator: "AND",
                  conditions: [{ field: "color", operator: "$stringContains", value: "red" }],
                },
              ],
            },
          },
        ],
        400,
        "invalid_filter",
        /title, number, project, createdAt/,
      ],
      [
        "a string operator on a number field",
        async () => [
          "search_issue",
          {
            queryTerm: "a",
            issueFilterFormula: {
              operator: "OR",
              conditions: [
                {
                  operator: "AND",
                  conditions: [{ field: "number", operator: "$stringContains", value: "1" }],
                },
              ],
            },
          },
        ],
        400,
        "invalid_filter",
        /number/,
      ],
      [
        "a team filter on an unknown field",
        async () => [
          "search_teams",
          {
            teamFilterFormula: {
              operator: "OR",
              conditions: [
                {
                  operator: "AND",
                  conditions: [{ field: "key", operator: "$stringExactlyMatches", value: "ENG" }],
                },
              ],
            },
          },
        ],
        400,
        "invalid_filter",
      ],
      [
        "a sub-issue of an unknown parent",
        async () => ["create_sub_issue", { parentId: NO_SUCH, teamId: eng.id, title: "x" }],
        422,
        "invalid_parent",
        /does not exist/,
      ],
      [
        "a sub-issue in another team",
        async () => [
          "create_sub_issue",
          { parentId: (await newIssue()).id, teamId: ops.id, title: "x" },
        ],
        422,
        "invalid_parent",
        /another team/,
      ],
      [
        "a sub-issue of an archived parent",
        async () => {
          const parent = await newIssue();
          await act("archive_issue", { issueId: parent.id });
          return ["create_sub_issue", { parentId: parent.id, teamId: eng.id, title: "x" }];
        },
        422,
        "invalid_parent",
        /archived/,
      ],
      [
        "a sub-issue of a deleted parent",
        async () => {
          const parent = await newIssue();
          await act("delete_issue", { issueId: parent.id });
          return ["create_sub_issue", { parentId: parent.id, teamId: eng.id, title: "x" }];
        },
        422,
        "invalid_parent",
        /deleted/,
      ],
      [
        "a project state that does not exist",
        async () => [
          "create_project",
          { teamIds: eng.id, projectName: "P", additionalFields: { state: "done" } },
        ],
        422,
        "invalid_state",
      ],
      [
        "a project for an unknown team",
        async () => ["create_project", { teamIds: [eng.id, NO_SUCH], projectName: "P" }],
        404,
        "not_found",
      ],
      [
        "an unknown project",
        async () => ["get_project_by_id", { projectId: NO_SUCH }],
        404,
        "not_found",
      ],
      [
        "an unknown action",
        async () => ["close_issue", { issueId: NO_SUCH }],
        404,
        "unknown_action",
      ],
    ];
    for (const [label, build, status, code, message] of cases) {
      it(label, async () => {
        const [name, params] = await build();
        const r = await act(name, params);
        expect(r.status, r.text).toBe(status);
        expect(r.json.error.code).toBe(code);
        if (message) expect(r.json.error.message).toMatch(message);
      });
    }

    it("leaves nothing half-written: a failed create takes no issue number", async () => {
      const before = await newIssue();
      expect(
        (
          await act("create_issue", {
            teamId: eng.id,
            title: "x",
            additionalFields: { labelIds: [NO_SUCH] },
          })
        ).status,
      ).toBe(422);
      const after = await newIssue();
      expect(after.number).toBe(before.number + 1);
    });
  });

  describe("the actions", () => {
    it("issues: create, read by id and identifier, update, search with a filter, sub-issue, archive, delete", async () => {
      const bug = eng.labels.find((l: Json) => l.name === "bug");
      const issue = await newIssue({
        title: "Checkout button does nothing",
        description: "Clicking it on Safari",
        priority: "2",
        dueDate: "2026-12-24",
        additionalFields: { labelIds: [bug.id] },
      });
      expect(issue).toMatchObject({
        identifier: `ENG-${issue.number}`,
        priority: 2,
        dueDate: "2026-12-24",
        labels: [{ name: "bug" }],
        state: { name: "Backlog" },
      });
      expect((await act("get_issue_by_id", { issueId: issue.id })).json.issue.id).toBe(issue.id);
      expect(
        (await act("get_issue_by_issue_identifier", { externalId: issue.identifier.toLowerCase() }))
          .json.issue.id,
      ).toBe(issue.id);

      const inProgress = eng.states.find((s: Json) => s.name === "In Progress");
      const updated = await act("update_issue", {
        issueId: issue.id,
        statusId: inProgress.id,
        priority: "1",
        additionalFields: { labelIds: [] },
      });
      expect(updated.status, updated.text).toBe(200);
      expect(updated.json.issue).toMatchObject({
        state: { name: "In Progress" },
        priority: 1,
        labels: [],
      });

      const filter = {
        operator: "OR",
        conditions: [
          {
            operator: "AND",
            conditions: [
              { field: "title", operator: "$stringStartsWith", value: "Checkout" },
              { field: "number", operator: "$numberGreaterThanOrEqualTo", value: issue.number },
            ],
          },
          {
            operator: "AND",
            conditions: [
              { field: "createdAt", operator: "$dateTimeBefore", value: "2000-01-01T00:00:00Z" },
            ],
          },
        ],
      };
      const found = await act("search_issue", { queryTerm: "safari", issueFilterFormula: filter });
      expect(found.status, found.text).toBe(200);
      expect(found.json.issues.map((i: Json) => i.id)).toEqual([issue.id]);

      const sub = await act("create_sub_issue", {
        parentId: issue.id,
        teamId: eng.id,
        title: "Add a regression test",
      });
      expect(sub.status, sub.text).toBe(200);
      expect(sub.json.issue.parentId).toBe(issue.id);

      expect(
        (await act("archive_issue", { issueId: issue.id })).json.issue.archivedAt,
      ).toBeTruthy();
      expect((await act("get_issue_by_id", { issueId: issue.id })).status).toBe(200); // archived: still readable
      expect((await act("search_issue", { queryTerm: "safari" })).json.issues).toEqual([]);
      expect((await act("delete_issue", { issueId: sub.json.issue.id })).status).toBe(200);
      expect((await act("get_issue_by_id", { issueId: sub.json.issue.id })).status).toBe(404); // deleted: gone
    });

    it("projects: create (teamIds as a JSON array string), update, get, delete", async () => {
      const created = await act("create_project", {
        teamIds: JSON.stringify([eng.id, ops.id]),
        projectName: "Launch",
        description: "Q1",
        additionalFields: { state: "started" },
      });
      expect(created.status, created.text).toBe(200);
      const project = created.json.project;
      expect(project).toMatchObject({ name: "Launch", state: "started" });
      expect(project.teams.map((t: Json) => t.key)).toEqual(["ENG", "OPS"]);
      const updated = await act("update_project", {
        projectId: project.id,
        projectName: "Launch v2",
        additionalFields: { state: "paused" },
      });
      expect(updated.json.project).toMatchObject({
        name: "Launch v2",
        state: "paused",
        description: "Q1",
      });
      expect((await act("get_project_by_id", { projectId: project.id })).json.project.name).toBe(
        "Launch v2",
      );
      expect((await act("delete_project", { projectId: project.id })).status).toBe(200);
      expect((await act("get_project_by_id", { projectId: project.id })).status).toBe(404);
    });

    it("teams: search with a filter", async () => {
      const r = await act("search_teams", {
        teamFilterFormula: {
          operator: "OR",
          conditions: [
            {
              operator: "AND",
              conditions: [{ field: "name", operator: "$stringStartsWith", value: "Eng" }],
            },
          ],
        },
      });
      expect(r.json.teams.map((t: Json) => t.key)).toEqual(["ENG"]);
    });
  });

  describe("agents use the actions as tools", () => {
    it("the offline model files an issue and a sub-issue; a one-action grant gives one tool", async () => {
      const crew = crewClient(ctx().baseUrl, "tracker-crew", TEST_CREW_TOKEN);
      const id = await crew.start({ problem: "Invoices show the wrong currency" });
      const done = await crew.waitFor(id, (s) => s.status === "completed" || s.status === "error");
      expect(done.status, done.error).toBe("completed");
      const events = (await crew.events(id)).json.events as {
        type: string;
        task_id: string;
        data: Json;
      }[];
      const calls = events
        .filter((e) => e.type === "tool_call")
        .map((e) => [e.task_id, e.data.tool]);
      expect(calls).toEqual([
        ["file", "search_teams"],
        ["file", "create_issue"],
        ["file", "create_sub_issue"],
        ["look", "search_teams"],
      ]);
      const created = events.find((e) => e.type === "tool_result" && e.data.tool === "create_issue")
        ?.data.result as Json;
      const identifier = created.issue.identifier;
      expect(done.tasks[0].output).toContain(identifier);
      const issue = (await act("get_issue_by_issue_identifier", { externalId: identifier })).json
        .issue;
      expect(issue.title).toBe("Report: Invoices show the wrong currency");
      const subs = (await act("search_issue", { queryTerm: "Follow-up: Report: Invoices" })).json
        .issues;
      expect(subs.map((s: Json) => s.parentId)).toEqual([issue.id]);
    });
  });
}
