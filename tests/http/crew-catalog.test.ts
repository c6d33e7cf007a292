import { describe, expect, inject, it } from "vitest";
import { call, expectProblem, type Json } from "../support/api";
import { TEST_CREW_TOKEN } from "../support/harness";

// GET /api/crews and GET {base_url}/definition: what a program learns of the crews before it
// starts one — their inputs, agents and models, and every warning with its file and line.
const baseUrl = inject("baseUrl");
const get = (path: string) => call(baseUrl, "GET", path, { token: TEST_CREW_TOKEN });

describe("GET /api/crews", () => {
  it("lists every crew with its inputs, agents, models and warnings (file, key, line)", async () => {
    const r = await get("/api/crews");
    expect(r.status, r.text).toBe(200);
    const brief = (r.json.crews as Json[]).find((c) => c.slug === "brief");
    expect(brief).toMatchObject({
      kind: "crew",
      url: "/api/crews/brief",
      inputs: expect.any(Array),
      input_schema: { type: "object" },
      flow: null,
    });
    expect(brief?.agents[0]).toMatchObject({ id: expect.any(String), model: expect.any(String) });
    const style = (r.json.crews as Json[]).find((c) => c.slug === "crewai-style");
    expect(style?.warnings).toContainEqual({
      file: "crewai-style/config/agents.yaml",
      key: "analyst.verbose",
      line: 5,
      message: "unknown key ignored",
    });
    // A folder that did not load is not served, and says why and where.
    expect(r.json.errors).toContainEqual({
      slug: "broken",
      file: "broken/crew.yaml",
      key: "tasks.t.agent",
      line: 11,
      reason: expect.stringContaining("'nobody' is not an agent"),
    });
  });

  it("is for callers with a token, and only read", async () => {
    expectProblem(await call(baseUrl, "GET", "/api/crews", {}), 401);
    const post = await call(baseUrl, "POST", "/api/crews/", { token: TEST_CREW_TOKEN, body: {} });
    expect(post.status).toBe(405);
  });
});

describe("GET {base_url}/definition", () => {
  it("describes one crew, and leaves its URL CrewAI's health check", async () => {
    const r = await get("/api/crews/crewai-style/definition");
    expect(r.status, r.text).toBe(200);
    expect(r.json.slug).toBe("crewai-style");
    expect(r.json.warnings.map((w: Json) => w.key)).toContain("analyst.verbose");
    expect((await get("/api/crews/crewai-style")).text).toBe("Healthy");
    expectProblem(await get("/api/crews/nope/definition"), 404);
  });
});
