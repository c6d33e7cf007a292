import http from "node:http";
import https from "node:https";
import type net from "node:net";
import { errorCode, errorMessage } from "@/lib/errors";
import {
  assertLiteralAllowed,
  guardedLookup,
  RefusedUrlError,
  refusalReason,
  UNRESOLVED_CODES,
} from "./ssrf";

export type AttemptResult = {
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  retryAfterMs: number | null;
  /** DNS said the host does not exist: retrying for hours rarely helps (see giveUpAfter). */
  unresolved?: boolean;
};

const RESPONSE_BODY_LIMIT = 4 * 1024;

// An idle kept-alive connection is closed after this long: shorter than the 5 s most servers
// (Node's included) keep one open, so it is rarely the receiver that closes it under us.
const IDLE_MS = 4_000;

// Kept-alive connections, so a busy endpoint is not paid a TCP (and TLS) handshake per delivery.
// An Agent pools sockets by host, port (and TLS options): a socket is reused only for the same
// host, and every socket was connected to an address guardedLookup checked when it connected.
const agentOptions = { keepAlive: true, timeout: IDLE_MS, scheduling: "lifo" } as const;
const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };

// What a kept-alive socket closed by the receiver just as it was reused looks like: the request
// never got an answer, and sending it again on a fresh connection is safe (it carries the same
// webhook-id, so a receiver that did see it dedupes it).
const STALE_SOCKET_CODES = new Set(["ECONNRESET", "EPIPE"]);

type PostArgs = {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
};

/**
 * One POST of a signed webhook. Redirects are not followed (a 3xx is a failure, so a redirect
 * cannot lead past the address check); the response body is read only a little; the whole
 * attempt is bounded by `timeoutMs`. The connection is kept alive for the next one.
 */
export async function postWebhook(args: PostArgs): Promise<AttemptResult> {
  const started = performance.now();
  const first = await postOnce(args, started);
  if (!first.staleSocket) return first.result;
  // Once only, and on a new connection: the one reused had been closed by the receiver.
  const remaining = args.timeoutMs - (performance.now() - started);
  if (remaining <= 0) return first.result;
  return (await postOnce({ ...args, timeoutMs: remaining }, started, { fresh: true })).result;
}

type Outcome = Omit<AttemptResult, "latencyMs">;

function postOnce(
  { url, body, headers, timeoutMs }: PostArgs,
  started: number,
  { fresh = false } = {},
): Promise<{ result: AttemptResult; staleSocket?: boolean }> {
  const done = (r: Outcome): AttemptResult => ({
    ...r,
    latencyMs: Math.round(performance.now() - started),
  });
  let target: URL;
  try {
    target = new URL(url);
    assertLiteralAllowed(target);
  } catch (err) {
    return Promise.resolve({
      result: done({ statusCode: null, error: errorMessage(err), retryAfterMs: null }),
    });
  }
  return new Promise((settle) => {
    let answered = false;
    const req = sendPost(target, { body, headers, timeoutMs, fresh }, (res) => {
      answered = true;
      readAnswer(res, (outcome) => settle({ result: done(outcome) }));
    });
    const deadline = setTimeout(
      () => req.destroy(new Error(`no response within ${timeoutMs} ms`)),
      timeoutMs,
    );
    req.on("timeout", () => req.destroy(new Error(`no response within ${timeoutMs} ms`)));
    req.on("socket", (socket: net.Socket) => {
      // Defence in depth: a reused connection is still to an address the guard allows now.
      if (!req.reusedSocket || !socket.remoteAddress) return;
      const reason = refusalReason(socket.remoteAddress);
      if (reason) req.destroy(new RefusedUrlError(`${target.hostname} is connected to ${reason}`));
    });
    req.on("error", (err) => {
      clearTimeout(deadline);
      const failed = failureOf(err, {
        reusedUnanswered: req.reusedSocket && !answered,
        hostname: target.hostname,
      });
      settle(
        failed.staleSocket
          ? { result: done(failed.outcome), staleSocket: true }
          : { result: done(failed.outcome) },
      );
    });
    req.on("close", () => clearTimeout(deadline));
    req.end(body);
  });
}

/** The POST itself, through a kept-alive connection unless `fresh`. */
function sendPost(
  target: URL,
  { body, headers, timeoutMs, fresh }: Omit<PostArgs, "url"> & { fresh: boolean },
  onResponse: (res: http.IncomingMessage) => void,
): http.ClientRequest {
  const tls = target.protocol === "https:";
  const client = tls ? https : http;
  // A retry after a stale socket gets a connection of its own (agent: false), not another
  // idle one that may be stale too.
  const agent = fresh ? false : tls ? agents.https : agents.http;
  return client.request(
    target,
    {
      method: "POST",
      agent,
      lookup: guardedLookup,
      headers: {
        ...headers,
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body),
        "user-agent": "Crewdeck-Webhooks/1",
      },
      timeout: timeoutMs,
    },
    onResponse,
  );
}

/** Reads a little of the answer (no more than RESPONSE_BODY_LIMIT), then says what it was. */
function readAnswer(res: http.IncomingMessage, finish: (outcome: Outcome) => void) {
  let read = 0;
  res.on("data", (chunk: Buffer) => {
    read += chunk.length;
    if (read > RESPONSE_BODY_LIMIT) res.destroy();
  });
  const answered = () => finish(answerOf(res.statusCode, res.headers["retry-after"]));
  res.on("end", answered);
  res.on("close", answered);
}

/** What an answer with `statusCode` comes to: a success (2xx) or a failure naming the status. */
export function answerOf(
  statusCode: number | undefined,
  retryAfter: string | string[] | undefined,
): Outcome {
  return {
    statusCode: statusCode ?? null,
    error: statusCode && statusCode >= 200 && statusCode < 300 ? null : `HTTP ${statusCode}`,
    retryAfterMs: parseRetryAfter(retryAfter),
  };
}

/**
 * What a request that failed without an answer comes to. `staleSocket`: a reused connection the
 * receiver had closed, worth one more try on a fresh one.
 */
export function failureOf(
  err: Error,
  { reusedUnanswered, hostname }: { reusedUnanswered: boolean; hostname: string },
): { outcome: Outcome; staleSocket: boolean } {
  const code = errorCode(err) ?? "";
  if (reusedUnanswered && STALE_SOCKET_CODES.has(code))
    return {
      outcome: { statusCode: null, error: err.message, retryAfterMs: null },
      staleSocket: true,
    };
  if (UNRESOLVED_CODES.has(code))
    return {
      outcome: {
        statusCode: null,
        error: `the host ${hostname} does not resolve (${code})`,
        retryAfterMs: null,
        unresolved: true,
      },
      staleSocket: false,
    };
  const message = err instanceof RefusedUrlError ? `refused: ${err.message}` : err.message;
  return { outcome: { statusCode: null, error: message, retryAfterMs: null }, staleSocket: false };
}

function parseRetryAfter(value: string | string[] | undefined): number | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return null;
  if (/^\d+$/.test(v.trim())) return Number(v) * 1000;
  const date = Date.parse(v);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}
