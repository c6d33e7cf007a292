import http from "node:http";
import https from "node:https";
import { errorCode, errorMessage } from "@/lib/errors";
import {
  assertLiteralAllowed,
  guardedLookupFor,
  RefusedUrlError,
  UNRESOLVED_CODES,
} from "@/lib/webhooks/ssrf";

// Outgoing HTTP for the web tools (scrape_website, web_search). Every hop is checked against the
// SSRF guard with TOOL_ALLOWED_NETWORKS: IP literals before connecting, names at connect time (so
// a name re-pointed between check and connect cannot slip through), and each redirect again.

const lookup = guardedLookupFor("TOOL_ALLOWED_NETWORKS");

/** The request was refused or failed before a response: the message is safe to show the model. */
export class FetchError extends Error {
  constructor(
    message: string,
    readonly refused = false,
  ) {
    super(message);
  }
}

export type GuardedResponse = {
  url: string;
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The body was longer than `maxBytes`: only its start was read. */
  truncated: boolean;
  /** A Content-Length over `maxBytes`: nothing was read. */
  tooBig: boolean;
};

export type GuardedRequest = {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  maxBytes: number;
  /** Redirects followed (GET only); 0 returns the 3xx as it is. */
  maxRedirects?: number;
  signal?: AbortSignal;
};

/** One request, redirects followed up to `maxRedirects`, the whole chain within `timeoutMs`. */
export async function guardedFetch(req: GuardedRequest): Promise<GuardedResponse> {
  const deadline = AbortSignal.timeout(req.timeoutMs);
  const signal = req.signal ? AbortSignal.any([req.signal, deadline]) : deadline;
  let url = parseUrl(req.url);
  const max = req.maxRedirects ?? 0;
  for (let hop = 0; ; hop++) {
    const res = await once(url, req, signal);
    const location = res.headers.location;
    if (res.status < 300 || res.status >= 400 || res.status === 304 || !location) return res;
    if (hop >= max) {
      if (max === 0) return res;
      throw new FetchError(`too many redirects (more than ${max})`);
    }
    url = parseUrl(new URL(location, url).toString());
  }
}

function parseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchError(`'${raw.slice(0, 200)}' is not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new FetchError(`only http and https URLs are allowed, not ${url.protocol}`, true);
  if (url.username || url.password)
    throw new FetchError("credentials in the URL are not allowed", true);
  try {
    assertLiteralAllowed(url, "TOOL_ALLOWED_NETWORKS");
  } catch (err) {
    throw new FetchError(`refused: ${errorMessage(err)}`, true);
  }
  return url;
}

function once(url: URL, req: GuardedRequest, signal: AbortSignal): Promise<GuardedResponse> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(timeoutError(req.timeoutMs, signal));
    const client = url.protocol === "https:" ? https : http;
    const headers: Record<string, string | number> = {
      "user-agent": "Crewdeck-Tools/1",
      "accept-encoding": "identity",
      ...req.headers,
    };
    if (req.body !== undefined) headers["content-length"] = Buffer.byteLength(req.body);
    const r = client.request(
      url,
      { method: req.method ?? "GET", headers, lookup, signal },
      (res) => {
        const declared = Number(res.headers["content-length"]);
        const base = { url: url.toString(), status: res.statusCode ?? 0, headers: res.headers };
        if (Number.isFinite(declared) && declared > req.maxBytes) {
          resolve({ ...base, body: Buffer.alloc(0), truncated: false, tooBig: true });
          return res.destroy();
        }
        const chunks: Buffer[] = [];
        let read = 0;
        let truncated = false;
        // Settled once: a body cut at the limit is the answer, whatever closing the socket says.
        let settled = false;
        const finish = () => {
          if (settled) return;
          settled = true;
          resolve({ ...base, body: Buffer.concat(chunks), truncated, tooBig: false });
        };
        const fail = (err: Error) => {
          if (settled) return;
          settled = true;
          reject(failure(err, url, req, signal));
        };
        res.on("data", (chunk: Buffer) => {
          if (settled) return;
          const room = req.maxBytes - read;
          if (chunk.length > room) {
            chunks.push(chunk.subarray(0, room));
            read = req.maxBytes;
            truncated = true;
            finish();
            res.destroy();
            return;
          }
          chunks.push(chunk);
          read += chunk.length;
        });
        res.on("end", finish);
        res.on("error", fail);
        res.on("aborted", () => fail(new Error("connection closed")));
      },
    );
    r.on("error", (err) => reject(failure(err, url, req, signal)));
    r.end(req.body);
  });
}

function timeoutError(ms: number, signal: AbortSignal) {
  const timedOut = signal.reason instanceof Error && signal.reason.name === "TimeoutError";
  return new FetchError(timedOut ? `no complete response within ${ms / 1000} s` : "cancelled");
}

function failure(err: Error, url: URL, req: GuardedRequest, signal: AbortSignal): FetchError {
  if (err instanceof FetchError) return err;
  if (err instanceof RefusedUrlError) return new FetchError(`refused: ${err.message}`, true);
  if (signal.aborted) return timeoutError(req.timeoutMs, signal);
  const code = errorCode(err) ?? "";
  if (UNRESOLVED_CODES.has(code))
    return new FetchError(`the host ${url.hostname} does not resolve`);
  return new FetchError(`could not reach ${url.host}: ${err.message}`);
}
