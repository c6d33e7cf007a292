import http from "node:http";
import https from "node:https";
import { Readable } from "node:stream";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { assertLiteralAllowed, guardedLookupFor } from "@/lib/webhooks/ssrf";

// The fetch the MCP client's Streamable HTTP transport uses: node:http with the SSRF guard's
// lookup (TOOL_ALLOWED_NETWORKS), so every connection, by IP literal or by name resolved at
// connect time, is checked. Redirects are not followed (a 3xx is returned as is). Responses
// stream (the transport reads server-sent events from the body as they come).

const lookup = guardedLookupFor("TOOL_ALLOWED_NETWORKS");

export const guardedFetch: FetchLike = (input, init) =>
  new Promise<Response>((resolve, reject) => {
    let url: URL;
    try {
      url = new URL(input instanceof URL ? input.href : String(input));
      if (url.protocol !== "http:" && url.protocol !== "https:")
        throw new Error(`only http and https URLs are allowed, not ${url.protocol}`);
      assertLiteralAllowed(url, "TOOL_ALLOWED_NETWORKS");
    } catch (err) {
      reject(err);
      return;
    }
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((v, k) => {
      headers[k] = v;
    });
    const body = init?.body;
    if (body !== undefined && body !== null && typeof body !== "string")
      throw new Error("the MCP transport sent a body that is not text");
    const req = (url.protocol === "https:" ? https : http).request(url, {
      method: init?.method ?? "GET",
      headers: body ? { ...headers, "content-length": String(Buffer.byteLength(body)) } : headers,
      lookup,
      signal: init?.signal ?? undefined,
    });
    req.on("error", reject);
    req.on("response", (res) => {
      const out = new Headers();
      for (const [k, v] of Object.entries(res.headers)) {
        if (Array.isArray(v)) for (const one of v) out.append(k, one);
        else if (v !== undefined) out.set(k, v);
      }
      const status = res.statusCode ?? 0;
      const empty = status === 204 || status === 304 || init?.method === "HEAD";
      if (empty) res.resume();
      // Node types its web streams apart from the DOM's ReadableStream, the same object at runtime.
      const body = empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
      resolve(
        new Response(body, {
          status,
          statusText: res.statusMessage,
          headers: out,
        }),
      );
    });
    req.end(body ?? undefined);
  });
