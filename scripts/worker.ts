// `npm run worker`: a worker process on its own, for scale-out on PostgreSQL.

import { env } from "@/lib/config/env";
import { getDb } from "@/lib/db";
import { errorMessage } from "@/lib/errors";
import { serveWorkerMetrics } from "@/lib/metrics/serve";
import { wireA2aPushes } from "@/lib/protocols/a2a/push-payloads";
import { survivesConnectionErrors } from "@/lib/server/last-resort";
import { onShutdown } from "@/lib/server/shutdown";
import { startWorkers } from "@/lib/server/start-workers";
import { startTelemetry, stopTelemetry } from "@/lib/telemetry/start";

async function main() {
  survivesConnectionErrors();
  const e = env();
  if (!e.DATABASE_URL) {
    console.error(
      "A separate worker needs DATABASE_URL: the embedded database belongs to the one process that opened it " +
        "(`npm start` already runs a worker inside it).",
    );
    process.exit(2);
  }
  const db = await getDb();
  wireA2aPushes(); // the runs it writes may have A2A push endpoints
  await startTelemetry();
  const worker = startWorkers(db);
  const metricsServer = e.WORKER_METRICS_PORT
    ? await serveWorkerMetrics({ db, port: e.WORKER_METRICS_PORT, host: process.env.HOST })
    : undefined;
  console.log(`Worker ${worker.id} running (concurrency ${e.WORKER_CONCURRENCY}).`);
  onShutdown(
    async () => {
      await metricsServer?.close();
      await worker.stop(e.SHUTDOWN_TIMEOUT_MS);
      await stopTelemetry();
      await db.close();
    },
    { deadlineMs: e.SHUTDOWN_TIMEOUT_MS },
  );
}

main().catch((err) => {
  console.error(`Worker failed to start: ${errorMessage(err)}`);
  process.exit(1);
});
