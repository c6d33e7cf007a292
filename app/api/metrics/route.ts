// GET /api/metrics — Prometheus exposition: runs, tasks, reviews, queue, webhooks, tokens, leases.
import { getDb } from "@/lib/db";
import { clientAddress } from "@/lib/http/client-address";
import { metricsRoute } from "@/lib/http/metrics-route";
import { inMetricsNetworks } from "@/lib/metrics/metrics-access";
import { renderMetrics } from "@/lib/metrics/scrape";

export const dynamic = "force-dynamic";

export const GET = metricsRoute(
  (request) => inMetricsNetworks(clientAddress(request.headers)),
  async () => {
    const { contentType, body } = await renderMetrics(await getDb());
    return new Response(body, {
      headers: { "content-type": contentType, "cache-control": "no-store" },
    });
  },
);
