import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Signing, retry schedule and the SSRF guard of outbound webhooks.
let signing: typeof import("@/lib/webhooks/signing");
let schedule: typeof import("@/lib/webhooks/schedule");
let ssrf: typeof import("@/lib/webhooks/ssrf");
let deliver: typeof import("@/lib/webhooks/deliver");
let server: http.Server;
let port: number;
let hits = 0;

beforeAll(async () => {
  process.env.WEBHOOK_ALLOWED_NETWORKS = "127.0.0.2/32";
  signing = await import("@/lib/webhooks/signing");
  schedule = await import("@/lib/webhooks/schedule");
  ssrf = await import("@/lib/webhooks/ssrf");
  deliver = await import("@/lib/webhooks/deliver");
  server = http.createServer((_req, res) => {
    hits++;
    res.writeHead(200).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server.close();
});

describe("Standard Webhooks signatures", () => {
  it("matches the specification's example", () => {
    const sig = signing.sign({
      secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
      timestamp: 1614265330,
      body: '{"test": 2432232314}',
    });
    expect(sig).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });

  it("verifies what it signs and rejects tampering, other secrets and old timestamps", () => {
    const secret = signing.newSigningSecret();
    const body = '{"a":1}';
    const headers = new Headers(signing.signatureHeaders({ secret, id: "msg_1", body }));
    expect(signing.verify({ secret, headers, body })).toEqual({ ok: true });
    expect(signing.verify({ secret, headers, body: '{"a":2}' }).ok).toBe(false);
    expect(signing.verify({ secret: signing.newSigningSecret(), headers, body }).ok).toBe(false);
    const old = new Headers(
      signing.signatureHeaders({ secret, id: "msg_1", body, now: new Date(Date.now() - 600_000) }),
    );
    expect(signing.verify({ secret, headers: old, body }).ok).toBe(false);
    // During a rotation several signatures may be sent; one match is enough.
    const both = new Headers(headers);
    both.set("webhook-signature", `v1,bm90LWl0 ${headers.get("webhook-signature")}`);
    expect(signing.verify({ secret, headers: both, body }).ok).toBe(true);
  });
});

describe("retry schedule", () => {
  it("parses durations", () => {
    expect(schedule.parseSchedule("0,5s,5m,30m,2h,5h,10h,10h")).toEqual([
      0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    expect(schedule.parseSchedule("0, 100, 1.5s")).toEqual([0, 100, 1_500]);
    expect(() => schedule.parseSchedule("0,soon")).toThrow(/'soon'/);
  });
  it("gives the next delay with ±10 % jitter, honours a longer Retry-After, and ends", () => {
    const s = [0, 5_000, 300_000];
    expect(schedule.nextDelayMs(s, 1, null, () => 0)).toBe(4_500);
    expect(schedule.nextDelayMs(s, 1, null, () => 1)).toBe(5_500);
    expect(schedule.nextDelayMs(s, 1, 60_000, () => 0.5)).toBe(60_000);
    expect(schedule.nextDelayMs(s, 2, 1_000, () => 0.5)).toBe(300_000);
    expect(schedule.nextDelayMs(s, 3, null)).toBeNull();
  });
  it("gives up on a host that does not resolve after a few attempts, saying so", async () => {
    const unresolved = await deliver.postWebhook({
      url: "http://no-such-host.invalid/hook",
      body: "{}",
      headers: {},
      timeoutMs: 5_000,
    });
    expect(unresolved).toMatchObject({ statusCode: null, unresolved: true });
    expect(unresolved.error).toMatch(/the host no-such-host\.invalid does not resolve/);
    const s = schedule.parseSchedule("0,5s,5m,30m,2h,5h,10h,10h");
    expect(schedule.nextAttempt(s, 1, unresolved, () => 0.5).delayMs).toBe(5_000);
    expect(schedule.nextAttempt(s, 2, unresolved, () => 0.5).delayMs).toBe(300_000);
    const last = schedule.nextAttempt(s, schedule.UNRESOLVED_MAX_ATTEMPTS, unresolved);
    expect(last.delayMs).toBeNull();
    expect(last.error).toMatch(/does not resolve .*; gave up after 3 attempts/);
    // Other failures keep the whole schedule, and a 503's Retry-After is honoured.
    const down = { statusCode: 503, latencyMs: 1, error: "HTTP 503", retryAfterMs: 3_600_000 };
    expect(schedule.nextAttempt(s, 3, down, () => 0.5)).toEqual({
      delayMs: 3_600_000,
      error: "HTTP 503",
    });
  });
});

describe("SSRF guard", () => {
  it.each([
    ["127.0.0.1", /loopback/],
    ["10.1.2.3", /private/],
    ["172.16.0.1", /private/],
    ["192.168.1.1", /private/],
    ["169.254.169.254", /linkLocal/],
    ["100.64.0.1", /carrierGradeNat/],
    ["0.0.0.0", /unspecified/],
    ["224.0.0.251", /multicast/],
    ["240.0.0.1", /reserved/],
    ["::1", /loopback/],
    ["::ffff:127.0.0.1", /ipv4Mapped/],
    ["::ffff:8.8.8.8", /ipv4Mapped/],
    ["fd12:3456::1", /uniqueLocal/],
    ["fe80::1", /linkLocal/],
    // IPv6 forms with an IPv4 address inside: the reason names it.
    ["::7f00:1", /ipv4Compatible address embedding 127\.0\.0\.1 \(loopback\)/],
    ["::a9fe:a9fe", /ipv4Compatible address embedding 169\.254\.169\.254 \(linkLocal\)/],
    ["::808:808", /ipv4Compatible address embedding 8\.8\.8\.8/],
    ["::ffff:0:a00:1", /rfc6145 address embedding 10\.0\.0\.1 \(private\)/],
    ["64:ff9b::7f00:1", /rfc6052 address embedding 127\.0\.0\.1 \(loopback\)/],
    ["2002:a9fe:a9fe::1", /6to4 address embedding 169\.254\.169\.254 \(linkLocal\)/],
    ["2001:0:4136:e378:8000:63bf:80ff:fffe", /teredo address embedding 127\.0\.0\.1 \(loopback\)/],
    ["fec0::1", /deprecatedSiteLocal/],
  ])("refuses %s", (address, why) => {
    expect(ssrf.refusalReason(address)).toMatch(why);
  });
  it.each(["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "127.0.0.2"])(
    "allows %s (public, or in WEBHOOK_ALLOWED_NETWORKS)",
    (address) => {
      expect(ssrf.refusalReason(address)).toBeUndefined();
    },
  );

  it("checks the address a name resolves to when connecting, not only when the URL was given", async () => {
    const before = hits;
    const r = await deliver.postWebhook({
      url: `http://localhost:${port}/hook`,
      body: "{}",
      headers: {},
      timeoutMs: 2_000,
    });
    expect(r.statusCode).toBeNull();
    expect(r.error).toMatch(/refused: localhost resolves to .*loopback/);
    const literal = await deliver.postWebhook({
      url: `http://127.0.0.1:${port}/hook`,
      body: "{}",
      headers: {},
      timeoutMs: 2_000,
    });
    expect(literal.error).toMatch(/loopback/);
    expect(hits).toBe(before); // the server was never reached
  });

  it("refuses credentials in the URL and non-http schemes", async () => {
    await expect(ssrf.checkWebhookUrl("http://user:pw@example.com/x")).rejects.toThrow(
      /credentials/,
    );
    await expect(ssrf.checkWebhookUrl("file:///etc/passwd")).rejects.toThrow(/http/);
  });

  it("refuses an IPv4-compatible IPv6 literal as it is written in a URL", async () => {
    await expect(ssrf.checkWebhookUrl("http://[::127.0.0.1]/hook")).rejects.toThrow(
      /embedding 127\.0\.0\.1/,
    );
  });
});

describe("kept-alive connections", () => {
  // A receiver on 127.0.0.2 that numbers its connections and, if told, drops a kept-alive one
  // when a second request arrives on it (as a server whose idle timeout just ran out does).
  async function receiver({ dropSecondRequest = false } = {}) {
    const seen: { connection: number; path: string }[] = [];
    let connections = 0;
    const ids = new WeakMap<object, { n: number; requests: number }>();
    const s = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        const c = ids.get(req.socket) ?? { n: 0, requests: 0 };
        c.requests++;
        if (dropSecondRequest && c.requests === 2) {
          req.socket.destroy();
          return;
        }
        seen.push({ connection: c.n, path: req.url ?? "" });
        res.writeHead(204).end();
      });
    });
    s.on("connection", (socket) => ids.set(socket, { n: ++connections, requests: 0 }));
    await new Promise<void>((r) => s.listen(0, "127.0.0.2", r));
    const url = (p: string) => `http://127.0.0.2:${(s.address() as AddressInfo).port}${p}`;
    return { seen, url, connections: () => connections, close: () => s.close() };
  }
  const post = (url: string) =>
    deliver.postWebhook({ url, body: "{}", headers: {}, timeoutMs: 5_000 });

  it("sends one endpoint's deliveries over one connection, one after the other", async () => {
    const rx = await receiver();
    for (const p of ["/1", "/2", "/3", "/4"]) expect((await post(rx.url(p))).statusCode).toBe(204);
    expect(rx.seen).toEqual(["/1", "/2", "/3", "/4"].map((path) => ({ connection: 1, path })));
    rx.close();
  });

  it("sends a delivery again on a new connection when the kept-alive one was closed under it", async () => {
    const rx = await receiver({ dropSecondRequest: true });
    expect((await post(rx.url("/1"))).statusCode).toBe(204);
    const second = await post(rx.url("/2"));
    expect(second).toMatchObject({ statusCode: 204, error: null });
    expect(rx.seen).toEqual([
      { connection: 1, path: "/1" },
      { connection: 2, path: "/2" },
    ]);
    rx.close();
  });
});
