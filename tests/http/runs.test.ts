import { beforeAll, describe, expect, inject, it } from "vitest";
import { call, crewClient, expectProblem } from "../support/api";
import { TEST_CREW_TOKEN, tokenCli } from "../support/harness";

// The dashboard's listing endpoints: filters, search, pages, and who may see what.
const baseUrl = inject("baseUrl");
const serverEnv = inject("serverEnv");
let userToken: string;
let mine: string;

beforeAll(async () => {
  userToken = tokenCli(["create", "--user", "lister@example.com"], serverEnv).token as string;
  mine = await crewClient(baseUrl, "no-inputs", userToken).start({});
  await crewClient(baseUrl, "brief", TEST_CREW_TOKEN).start({
    topic: "walruses",
    audience: "zoologists",
  });
});

describe("GET /api/runs", () => {
  it("filters by crew and finds runs by input text or kickoff id", async () => {
    const byCrew = await call(baseUrl, "GET", "/api/runs?crew=no-inputs", {
      token: TEST_CREW_TOKEN,
    });
    expect(byCrew.status, byCrew.text).toBe(200);
    expect(byCrew.json.runs.length).toBeGreaterThan(0);
    expect(byCrew.json.runs.every((r: { crew: string }) => r.crew === "no-inputs")).toBe(true);
    const byText = await call(baseUrl, "GET", "/api/runs?q=walrus", { token: TEST_CREW_TOKEN });
    expect(byText.json.runs.map((r: { inputs: { topic: string } }) => r.inputs.topic)).toContain(
      "walruses",
    );
    const byId = await call(baseUrl, "GET", `/api/runs?q=${mine.slice(0, 8)}`, {
      token: TEST_CREW_TOKEN,
    });
    expect(byId.json.runs.map((r: { id: string }) => r.id)).toContain(mine);
    const byPerson = await call(baseUrl, "GET", "/api/runs?person=lister@example.com", {
      token: TEST_CREW_TOKEN,
    });
    expect(
      byPerson.json.runs.every(
        (r: { started_by: string }) => r.started_by === "lister@example.com",
      ),
    ).toBe(true);
  });

  it("pages on the server", async () => {
    const first = await call(baseUrl, "GET", "/api/runs?per_page=2&page=1", {
      token: TEST_CREW_TOKEN,
    });
    const second = await call(baseUrl, "GET", "/api/runs?per_page=2&page=2", {
      token: TEST_CREW_TOKEN,
    });
    expect(first.json.runs).toHaveLength(2);
    expect(first.json.total).toBeGreaterThan(2);
    expect(second.json.runs[0].id).not.toBe(first.json.runs[0].id);
  });

  it("a user token lists only its own runs", async () => {
    const r = await call(baseUrl, "GET", "/api/runs", { token: userToken });
    expect(r.json.runs.map((x: { id: string }) => x.id)).toEqual([mine]);
  });

  it("rejects bad filters and needs a token", async () => {
    expectProblem(
      await call(baseUrl, "GET", "/api/runs?status=nope", { token: TEST_CREW_TOKEN }),
      400,
    );
    expectProblem(
      await call(baseUrl, "GET", "/api/runs?from=yesterday", { token: TEST_CREW_TOKEN }),
      400,
    );
    expectProblem(await call(baseUrl, "GET", "/api/runs"), 401);
  });

  it("stats count what needs attention and the last 14 days", async () => {
    const r = await call(baseUrl, "GET", "/api/runs/stats", { token: TEST_CREW_TOKEN });
    expect(r.status).toBe(200);
    expect(r.json.days).toHaveLength(14);
    expect(
      r.json.days.at(-1).completed +
        r.json.days.at(-1).other +
        r.json.days.at(-1).error +
        r.json.days.at(-1).cancelled,
    ).toBeGreaterThan(0);
  });
});

describe("people and tokens are managed from the dashboard only", () => {
  it("tokens cannot manage tokens or people over the API", async () => {
    expectProblem(await call(baseUrl, "GET", "/api/tokens", { token: TEST_CREW_TOKEN }), 403);
    expectProblem(await call(baseUrl, "GET", "/api/users", { token: TEST_CREW_TOKEN }), 403);
    expectProblem(await call(baseUrl, "GET", "/api/users", { token: userToken }), 403);
    expectProblem(
      await call(baseUrl, "GET", "/api/settings/webhook-secret", { token: TEST_CREW_TOKEN }),
      403,
    );
  });
});
