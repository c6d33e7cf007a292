// GET /api/metrics — Prometheus exposition: runs, tasks, reviews, queue, webhooks, tokens, leases.

import * as adminApi from "@/lib/api/endpoints/admin";
import { route } from "@/lib/api/route";
import { clientAddress } from "@/lib/auth/client-address";
import { getDb } from "@/lib/db";
import { scrapeCaller } from "@/lib/http/metrics-route";
import { inMetricsNetworks } from "@/lib/metrics/metrics-access";
import { renderMetrics } from "@/lib/metrics/scrape";

export const dynamic = "force-dynamic";

export const GET = route(
  adminApi.metrics,
  async () => {
    const { contentType, body } = await renderMetrics(await getDb());
    return new Response(body, {
      headers: { "content-type": contentType, "cache-control": "no-store" },
    });
  },
  {
    caller: scrapeCaller((request) => inMetricsNetworks(clientAddress(request.headers))),
    rateKey: () => null,
  },
);
