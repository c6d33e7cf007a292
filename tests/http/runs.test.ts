import { beforeAll, describe, expect, inject, it } from "vitest";
import { call, crewClient, expectProblem } from "../support/api";
import { TEST_CREW_TOKEN, tokenCli } from "../support/harness";

// The dashboard's listing endpoints: filters, search, pages, and who may see what.
const baseUrl = inject("baseUrl");
const serverEnv = inject("serverEnv");
let userToken: string;
let mine: string;

beforeAll(async () => {
  userToken = (await tokenCli(["create", "--user", "lister@example.com"], serverEnv))
    .token as string;
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
    expect(byPerson.json.runs.map((r: { id: string }) => r.id)).toEqual([mine]);
    expect(byPerson.json.runs[0].started_by).toMatchObject({ via: "api" });
  });

  it("pages by cursor, older and back newer, with no row skipped or repeated", async () => {
    // A person of its own, so the runs other test files start do not move the pages.
    const token = (await tokenCli(["create", "--user", "pager@example.com"], serverEnv))
      .token as string;
    const client = crewClient(baseUrl, "no-inputs", token);
    await Promise.all(Array.from({ length: 7 }, () => client.start({})));
    const all = await call(baseUrl, "GET", "/api/runs?per_page=100", { token });
    const ids = all.json.runs.map((r: { id: string }) => r.id);
    expect(ids).toHaveLength(7);
    expect(all.json.total).toBe(7);
    expect(all.json.total_capped).toBe(false);
    expect(all.json.next_cursor).toBeNull();

    const pages: string[][] = [];
    let cursor = "";
    let page: {
      json: { runs: { id: string }[]; next_cursor: string | null; prev_cursor: string | null };
    };
    do {
      page = await call(
        baseUrl,
        "GET",
        `/api/runs?per_page=2${cursor ? `&cursor=${cursor}` : ""}`,
        {
          token,
        },
      );
      if (pages.length === 0) expect(page.json.prev_cursor).toBeNull();
      pages.push(page.json.runs.map((r) => r.id));
      cursor = page.json.next_cursor ?? "";
    } while (cursor && pages.length < 100);
    expect(pages.flat()).toEqual(ids);

    // From the second page, prev_cursor leads back to exactly the first.
    const newest = await call(baseUrl, "GET", "/api/runs?per_page=2", { token });
    const older = await call(
      baseUrl,
      "GET",
      `/api/runs?per_page=2&cursor=${newest.json.next_cursor}`,
      {
        token,
      },
    );
    const back = await call(
      baseUrl,
      "GET",
      `/api/runs?per_page=2&cursor=${older.json.prev_cursor}`,
      {
        token,
      },
    );
    expect(back.json.runs.map((r: { id: string }) => r.id)).toEqual(pages[0]);
    expect(back.json.next_cursor).not.toBeNull();
  });

  it("refuses a cursor it did not issue", async () => {
    for (const bad of [
      "nope",
      Buffer.from('{"dir":"older","at":"x","id":"y"}').toString("base64url"),
    ]) {
      const r = await call(baseUrl, "GET", `/api/runs?cursor=${bad}`, { token: TEST_CREW_TOKEN });
      expectProblem(r, 400);
      expect(r.json.detail).toMatch(/cursor/);
    }
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
