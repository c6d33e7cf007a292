// GET /api/healthz — liveness for load balancers: the process answers. No auth, no database.
export const dynamic = "force-dynamic";

export function GET() {
  return new Response('{"status":"ok"}', {
    headers: { "content-type": "application/json", "cache-control": "no-store" },
  });
}
