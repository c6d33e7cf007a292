import { env } from "@/lib/config/env";
import { errors } from "@/lib/errors";
import { toProblem } from "./problem";

// The benchmarks' baseline routes (app/api/bench/…) answer only with BENCH_ROUTES=1, which no
// deployment sets; otherwise they are what any unknown path is.

/** The 404 problem of an unknown path, for a baseline route while BENCH_ROUTES is off. */
export function notABenchRoute(request: Request) {
  return toProblem(
    errors.notFound(`No API endpoint at ${new URL(request.url).pathname}. See /api/openapi.json.`),
  );
}

export const benchRoutesOn = () => env().BENCH_ROUTES;
