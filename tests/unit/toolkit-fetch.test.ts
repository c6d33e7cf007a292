import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { FetchError, guardedFetch } from "@/lib/tools/builtin/guarded-http";

// env() is read lazily: loopback is allowed for this file's own server only.
process.env.TOOL_ALLOWED_NETWORKS = "127.0.0.1/32";

const server = http.createServer((req, res) => {
  if (req.url === "/stream") {
    res.writeHead(200, { "content-type": "text/plain" });
    res.write("a".repeat(3000));
    setImmediate(() => res.end("b".repeat(3000)));
  } else if (req.url === "/sized") {
    res.writeHead(200, { "content-length": 5000 });
    res.end("c".repeat(5000));
  } else if (req.url === "/hop") {
    res.writeHead(307, { location: "/stream" });
    res.end();
  } else if (req.url === "/away") {
    res.writeHead(302, { location: "http://10.0.0.1/x" });
    res.end();
  } else {
    res.writeHead(200);
    res.end("ok");
  }
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const get = (path: string, maxBytes = 4096) =>
  guardedFetch({ url: origin + path, timeoutMs: 5000, maxBytes, maxRedirects: 2 });

describe("guardedFetch", () => {
  it("cuts a body that does not say its size at the limit", async () => {
    const res = await get("/stream");
    expect(res).toMatchObject({ status: 200, truncated: true, tooBig: false });
    expect(res.body.toString()).toBe("a".repeat(3000) + "b".repeat(1096));
  });

  it("refuses to read a body that says it is too big", async () => {
    expect(await get("/sized")).toMatchObject({ status: 200, tooBig: true, truncated: false });
  });

  it("follows redirects and says where it ended", async () => {
    expect(await get("/hop", 10_000)).toMatchObject({ url: `${origin}/stream`, truncated: false });
  });

  it.each([
    ["/away", /^refused: 10\.0\.0\.1 is a private address/],
    ["http://127.0.0.2/", /^refused: 127\.0\.0\.2 is a loopback address/],
    ["gopher://127.0.0.1/", /^only http and https URLs are allowed/],
    ["http://user:pw@127.0.0.1/", /^credentials in the URL are not allowed/],
  ])("refuses %s", async (target, why) => {
    const url = target.startsWith("/") ? origin + target : target;
    const err = await guardedFetch({ url, timeoutMs: 5000, maxBytes: 100, maxRedirects: 2 }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(FetchError);
    expect((err as Error).message).toMatch(why);
  });
});
