// GET /api/bench/<crew>/status/<id>?bytes=N — only for bench/status.mjs, and only when
// BENCH_ROUTES=1 (otherwise the same 404 problem as any unknown path). The baseline GET /status is
// compared with: a constant JSON body of N bytes, behind a path of the same shape (two dynamic
// segments, same depth), with no authentication, no database and no serialization per request.
import { errors } from "@/lib/errors";
import { benchRoutesOn, notABenchRoute as notFound } from "@/lib/http/bench-routes";
import { toProblem } from "@/lib/http/problem";

export const dynamic = "force-dynamic";

const MAX_BYTES = 1024 * 1024;
const bodies = new Map<number, string>();

/** A JSON object of exactly `bytes` bytes (at least the 10 of `{"pad":""}`), made once. */
function bodyOf(bytes: number) {
  let body = bodies.get(bytes);
  if (!body) {
    body = JSON.stringify({ pad: "x".repeat(Math.max(0, bytes - 10)) });
    if (bodies.size < 16) bodies.set(bytes, body);
  }
  return body;
}

export function GET(request: Request) {
  if (!benchRoutesOn()) return notFound(request);
  const bytes = Number(new URL(request.url).searchParams.get("bytes") ?? 0);
  if (!Number.isInteger(bytes) || bytes < 0 || bytes > MAX_BYTES)
    return toProblem(errors.badRequest(`bytes must be an integer from 0 to ${MAX_BYTES}.`));
  return new Response(bodyOf(bytes), {
    headers: { "content-type": "application/json", "cache-control": "no-store" },
  });
}

export { notFound as DELETE, notFound as PATCH, notFound as POST, notFound as PUT };
