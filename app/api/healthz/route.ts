// GET /api/healthz — liveness for load balancers: the process answers. No auth, no database.
import * as adminApi from "@/lib/api/endpoints/admin";
import { plainRoute } from "@/lib/api/route";

export const dynamic = "force-dynamic";

export const GET = plainRoute(
  adminApi.healthz,
  () =>
    new Response('{"status":"ok"}', {
      headers: { "content-type": "application/json", "cache-control": "no-store" },
    }),
);
