import { describe, expect, inject, it } from "vitest";
import { signatureHeaders } from "@/lib/webhooks/signing";
import { call, expectProblem } from "../support/api";
import { TEST_CREW_TOKEN } from "../support/harness";
import { TEST_WEBHOOK_SECRET } from "../support/receiver";

// The receiving side: Standard Webhooks signatures verified, each webhook-id stored once.
const baseUrl = inject("baseUrl");

function send(body: string, headers: Record<string, string>) {
  return call(baseUrl, "POST", "/api/hooks/receive", {
    body,
    headers: { "content-type": "application/json", ...headers },
  });
}

describe("POST /api/hooks/receive", () => {
  it("stores a signed webhook once, however often it is sent", async () => {
    const id = `msg_${Date.now()}`;
    const body = JSON.stringify({ event: "crew", hello: "world" });
    const first = await send(body, signatureHeaders({ secret: TEST_WEBHOOK_SECRET, id, body }));
    expect(first.status, first.text).toBe(200);
    expect(first.json).toEqual({ webhook_id: id, duplicate: false });
    const again = await send(body, signatureHeaders({ secret: TEST_WEBHOOK_SECRET, id, body }));
    expect(again.json).toEqual({ webhook_id: id, duplicate: true });
    const list = await call(baseUrl, "GET", "/api/hooks/receive", { token: TEST_CREW_TOKEN });
    expect(
      list.json.received.filter((r: { webhook_id: string }) => r.webhook_id === id),
    ).toHaveLength(1);
  });

  it("401 for a wrong signature, a tampered body, a stale timestamp or missing headers", async () => {
    const body = JSON.stringify({ a: 1 });
    const good = signatureHeaders({ secret: TEST_WEBHOOK_SECRET, id: "msg_x", body });
    expectProblem(
      await send(
        body,
        signatureHeaders({
          secret: "whsec_b3RoZXItc2VjcmV0LW90aGVyLXNlY3JldA==",
          id: "msg_x",
          body,
        }),
      ),
      401,
    );
    expectProblem(await send(JSON.stringify({ a: 2 }), good), 401);
    expectProblem(
      await send(
        body,
        signatureHeaders({
          secret: TEST_WEBHOOK_SECRET,
          id: "msg_x",
          body,
          now: new Date(Date.now() - 3_600_000),
        }),
      ),
      401,
    );
    expectProblem(await send(body, {}), 401);
  });

  it("413 for a body over 1 MiB", async () => {
    const body = JSON.stringify({ blob: "x".repeat(1024 * 1024) });
    expectProblem(
      await send(body, signatureHeaders({ secret: TEST_WEBHOOK_SECRET, id: "msg_big", body })),
      413,
    );
  });
});
