import http from "node:http";
import https from "node:https";
import { env } from "@/lib/config/env";
import { errorCode, errorMessage } from "@/lib/errors";
import { assertLiteralAllowed, guardedLookupFor } from "@/lib/webhooks/ssrf";
import type { Deployment } from "./store";

export type RemoteReply = { status: number; body: unknown; text: string };

/** The deployment could not be asked: refused address, no connection, time-out, huge answer. */
export class RemoteUnreachableError extends Error {}

const BODY_LIMIT = 1024 * 1024;
const lookup = guardedLookupFor("DEPLOYMENT_ALLOWED_NETWORKS");

/**
 * One request to a deployment, relative to its base URL, with its bearer token. SSRF-guarded
 * (DEPLOYMENT_ALLOWED_NETWORKS), redirects not followed (a 3xx is returned as is), bounded in
 * time and size. JSON answers are parsed; anything else is returned as text.
 */
export function callDeployment(
  deployment: Pick<Deployment, "base_url" | "token">,
  method: "GET" | "POST",
  path: string,
  body?: unknown,
): Promise<RemoteReply> {
  return new Promise((resolve, reject) => {
    let url: URL;
    try {
      url = new URL(deployment.base_url + path);
      assertLiteralAllowed(url, "DEPLOYMENT_ALLOWED_NETWORKS");
    } catch (err) {
      reject(new RemoteUnreachableError(errorMessage(err)));
      return;
    }
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const timeoutMs = env().DEPLOYMENT_TIMEOUT_MS;
    const req = (url.protocol === "https:" ? https : http).request(
      url,
      {
        method,
        lookup,
        timeout: timeoutMs,
        headers: {
          authorization: `Bearer ${deployment.token}`,
          accept: "application/json, text/plain",
          "user-agent": "Crewdeck/1",
          ...(payload
            ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) }
            : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > BODY_LIMIT) {
            req.destroy(new RemoteUnreachableError(`answer larger than ${BODY_LIMIT} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let parsed: unknown = text;
          if (/json/i.test(res.headers["content-type"] ?? "") || /^\s*[[{]/.test(text)) {
            try {
              parsed = JSON.parse(text);
            } catch {
              parsed = text;
            }
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, text });
        });
      },
    );
    const late = () => new RemoteUnreachableError(`no answer within ${timeoutMs / 1000} s`);
    const deadline = setTimeout(() => req.destroy(late()), timeoutMs);
    req.on("timeout", () => req.destroy(late()));
    req.on("error", (err) => {
      clearTimeout(deadline);
      const code = errorCode(err);
      reject(
        err instanceof RemoteUnreachableError
          ? err
          : new RemoteUnreachableError(
              `cannot reach ${url.host}: ${code ? `${code} ` : ""}${err.message}`.trim(),
            ),
      );
    });
    req.on("close", () => clearTimeout(deadline));
    req.end(payload);
  });
}
