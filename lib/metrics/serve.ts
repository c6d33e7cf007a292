import http from "node:http";
import type { Queryable } from "@/lib/db/types";
import { inMetricsNetworks } from "./metrics-access";
import { renderMetrics } from "./scrape";

/**
 * A worker started on its own (`npm run worker`) has no web server: with WORKER_METRICS_PORT it
 * serves its metrics at /metrics, to callers from METRICS_ALLOWED_NETWORKS only (no tokens here).
 */
export async function serveWorkerMetrics({
  db,
  port,
  host,
}: {
  db: Queryable;
  port: number;
  host?: string;
}) {
  const server = http.createServer(async (req, res) => {
    const path = (req.url ?? "").split("?")[0];
    if (req.method !== "GET" || (path !== "/metrics" && path !== "/api/metrics")) {
      res.writeHead(404, { "content-type": "text/plain" }).end("Not found: GET /metrics\n");
      return;
    }
    const peer = (req.socket.remoteAddress ?? "").replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, "$1");
    if (!inMetricsNetworks(peer)) {
      res.writeHead(403, { "content-type": "text/plain" }).end("Not in METRICS_ALLOWED_NETWORKS\n");
      return;
    }
    try {
      const { contentType, body } = await renderMetrics(db);
      res.writeHead(200, { "content-type": contentType, "cache-control": "no-store" }).end(body);
    } catch (err) {
      console.error("[metrics] scrape failed:", err);
      res.writeHead(503, { "content-type": "text/plain" }).end("The database is unreachable.\n");
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
