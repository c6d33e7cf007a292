// `npm run worker`: a worker process on its own, for scale-out on PostgreSQL.
import { env } from "@/lib/config/env";
import { getDb } from "@/lib/db";
import { startWorkers } from "@/lib/server/start-workers";

async function main() {
  const e = env();
  if (!e.DATABASE_URL) {
    console.error(
      "A separate worker needs DATABASE_URL: the embedded database belongs to the one process that opened it " +
        "(`npm start` already runs a worker inside it).",
    );
    process.exit(2);
  }
  const db = await getDb();
  const worker = startWorkers(db);
  console.log(`Worker ${worker.id} running (concurrency ${e.WORKER_CONCURRENCY}).`);
  const shutdown = async () => {
    console.log("Shutting down: handing running executions back…");
    await worker.stop();
    await db.close();
    process.exit(0);
  };
  process.once("SIGTERM", shutdown);
  process.once("SIGINT", shutdown);
}

main().catch((err) => {
  console.error(`Worker failed to start: ${(err as Error).message}`);
  process.exit(1);
});
