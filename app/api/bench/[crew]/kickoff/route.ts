// POST /api/bench/<crew>/kickoff — only for bench/kickoff.mjs, and only when BENCH_ROUTES=1
// (otherwise the same 404 problem as any unknown path). What Next.js alone costs a POST of
// /kickoff's shape: the same path depth, the JSON body read and parsed, an answer of the same
// size — no authentication, no database. Reported beside the target's bare GET route.
import { benchRoutesOn, notABenchRoute as notFound } from "@/lib/http/bench-routes";

export const dynamic = "force-dynamic";

const ANSWER = JSON.stringify({ kickoff_id: "00000000-0000-4000-8000-000000000000" });

export async function POST(request: Request) {
  if (!benchRoutesOn()) return notFound(request);
  JSON.parse(await request.text());
  return new Response(ANSWER, {
    headers: { "content-type": "application/json", "cache-control": "no-store" },
  });
}

export { notFound as DELETE, notFound as GET, notFound as PATCH, notFound as PUT };
