import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, expectProblem } from "../support/api";
import {
  FIXTURE_CREWS,
  type Proc,
  startServer,
  TEST_CREW_TOKEN,
  tempDir,
} from "../support/harness";

// AGENT_PROTOCOLS switches each agent protocol off: what is off answers 404 (after the token
// check, as every API route), what is on answers as usual.
let server: Proc & { url: string };

beforeAll(async () => {
  server = await startServer({
    DATA_DIR: tempDir("protocols-off"),
    CREWS_DIR: FIXTURE_CREWS,
    CREW_TOKEN: TEST_CREW_TOKEN,
    RUN_WORKER: "false",
    AGENT_PROTOCOLS: "mcp",
  });
});
afterAll(async () => {
  await server?.kill();
});

describe("AGENT_PROTOCOLS=mcp", () => {
  it("turns A2A and AG-UI off and leaves MCP on", async () => {
    const token = TEST_CREW_TOKEN;
    const a2a = await call(server.url, "POST", "/api/a2a/review", {
      token,
      body: { jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "x" } },
    });
    expectProblem(a2a, 404);
    expect(a2a.json.detail).toMatch(/A2A endpoint is switched off here \(AGENT_PROTOCOLS=mcp\)/);
    expectProblem(await call(server.url, "GET", "/.well-known/agent-card.json"), 404);
    expectProblem(
      await call(server.url, "GET", "/api/a2a/review/.well-known/agent-card.json", { token }),
      404,
    );
    const agUi = await call(server.url, "POST", "/api/ag-ui/review", {
      token,
      body: { threadId: "t", runId: "r", messages: [] },
    });
    expectProblem(agUi, 404);
    expect(agUi.json.detail).toMatch(/AG-UI endpoint is switched off/);
    // Off or on, a caller without a token learns nothing.
    expectProblem(await call(server.url, "POST", "/api/ag-ui/review", { body: {} }), 401);

    const mcp = await call(server.url, "POST", "/api/mcp", {
      token,
      headers: { accept: "application/json, text/event-stream" },
      body: {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "test", version: "1" },
        },
      },
    });
    expect(mcp.status, mcp.text).toBe(200);
    expect(mcp.text).toContain('"serverInfo"');
  });
});
