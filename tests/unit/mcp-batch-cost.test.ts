import { beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/auth/principal";
import { embeddedDbForFile } from "../support/embedded-db";

// An MCP body may be a batch of JSON-RPC messages: each costs what it would cost sent alone, one
// rate-limit token (the route took the first) and, if it may wait on a run, one stream slot.
const embedded = embeddedDbForFile("mcp-batch-cost", {
  RATE_LIMIT_PER_MINUTE: "60",
  STREAM_LIMIT_PER_CALLER: "5",
});
let mcp: typeof import("@/lib/protocols/mcp/server");
let limits: typeof import("@/lib/http/rate-limit");

beforeAll(async () => {
  mcp = await import("@/lib/protocols/mcp/server");
  limits = await import("@/lib/http/rate-limit");
});

const caller = (tokenId: string): Principal => ({
  kind: "user",
  tokenId,
  userId: "aaaaaaaa-0000-4000-8000-000000000001",
  email: "ada@example.com",
  role: "operator",
});

function batch(messages: object[]) {
  return new Request("http://localhost/api/mcp", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify(messages.map((m, i) => ({ jsonrpc: "2.0", id: i + 1, ...m }))),
  });
}
const call = { method: "tools/call", params: { name: "no-such-crew", arguments: {} } };

describe("an MCP batch", () => {
  it("takes a stream slot per call that may wait: past the caller's 5, a 429 that holds none", async () => {
    const ada = caller("t-slots");
    const refused = await mcp.handleMcpRequest(batch(Array(6).fill(call)), embedded.db, ada).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(refused).toMatchObject({ status: 429, code: "too-many-streams" });
    // Nothing was kept: all five slots are free.
    const held = Array.from({ length: 5 }, () => limits.acquireStreamSlot(ada));
    for (const release of held) release();
  });

  it("takes a rate-limit token per message", async () => {
    const ada = caller("t-rate");
    limits.checkRateLimit(ada); // the route's, for the request: the first message's
    const res = await mcp.handleMcpRequest(
      batch(Array(60).fill({ method: "ping" })),
      embedded.db,
      ada,
    );
    expect(res.status).toBe(200);
    expect(() => limits.checkRateLimit(ada)).toThrow(/Too many requests/);
  });

  it("a batch over the caller's whole minute is refused outright", async () => {
    const refused = await mcp
      .handleMcpRequest(batch(Array(100).fill({ method: "ping" })), embedded.db, caller("t-big"))
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    expect(refused).toMatchObject({ status: 429 });
  });
});
