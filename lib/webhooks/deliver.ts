import http from "node:http";
import https from "node:https";
import { assertLiteralAllowed, guardedLookup, RefusedUrlError, UNRESOLVED_CODES } from "./ssrf";

export type AttemptResult = {
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  retryAfterMs: number | null;
  /** DNS said the host does not exist: retrying for hours rarely helps (see giveUpAfter). */
  unresolved?: boolean;
};

const RESPONSE_BODY_LIMIT = 4 * 1024;

/**
 * One POST of a signed webhook. Redirects are not followed (a 3xx is a failure, so a redirect
 * cannot lead past the address check); the response body is read only a little; the whole
 * attempt is bounded by `timeoutMs`.
 */
export function postWebhook({
  url,
  body,
  headers,
  timeoutMs,
}: {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
}): Promise<AttemptResult> {
  const started = performance.now();
  const done = (r: Omit<AttemptResult, "latencyMs">): AttemptResult => ({
    ...r,
    latencyMs: Math.round(performance.now() - started),
  });
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
      assertLiteralAllowed(target);
    } catch (err) {
      resolve(done({ statusCode: null, error: (err as Error).message, retryAfterMs: null }));
      return;
    }
    const client = target.protocol === "https:" ? https : http;
    const req = client.request(
      target,
      {
        method: "POST",
        lookup: guardedLookup,
        headers: {
          ...headers,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          "user-agent": "Crewdeck-Webhooks/1",
        },
        timeout: timeoutMs,
      },
      (res) => {
        let read = 0;
        res.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read > RESPONSE_BODY_LIMIT) res.destroy();
        });
        const finish = () =>
          resolve(
            done({
              statusCode: res.statusCode ?? null,
              error:
                res.statusCode && res.statusCode >= 200 && res.statusCode < 300
                  ? null
                  : `HTTP ${res.statusCode}`,
              retryAfterMs: parseRetryAfter(res.headers["retry-after"]),
            }),
          );
        res.on("end", finish);
        res.on("close", finish);
      },
    );
    const deadline = setTimeout(
      () => req.destroy(new Error(`no response within ${timeoutMs} ms`)),
      timeoutMs,
    );
    req.on("timeout", () => req.destroy(new Error(`no response within ${timeoutMs} ms`)));
    req.on("error", (err) => {
      clearTimeout(deadline);
      if (UNRESOLVED_CODES.has((err as NodeJS.ErrnoException).code ?? "")) {
        resolve(
          done({
            statusCode: null,
            error: `the host ${target.hostname} does not resolve (${(err as NodeJS.ErrnoException).code})`,
            retryAfterMs: null,
            unresolved: true,
          }),
        );
        return;
      }
      const message = err instanceof RefusedUrlError ? `refused: ${err.message}` : err.message;
      resolve(done({ statusCode: null, error: message, retryAfterMs: null }));
    });
    req.on("close", () => clearTimeout(deadline));
    req.end(body);
  });
}

function parseRetryAfter(value: string | string[] | undefined): number | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return null;
  if (/^\d+$/.test(v.trim())) return Number(v) * 1000;
  const date = Date.parse(v);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}
