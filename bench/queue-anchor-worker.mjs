// The graphile-worker process of bench/queue-anchor.mjs: one worker with CONCURRENCY, a single task
// `step` that, when run, queues the next step of its chain (a no-op otherwise), like a crew whose
// tasks run in order. It checks every chain's steps ran once each and in order, and when
// EXPECTED_JOBS handlers have finished prints one `queue-anchor-summary {json}` line.
import { performance } from "node:perf_hooks";
import { Logger, run } from "graphile-worker";

const expected = Number(process.env.EXPECTED_JOBS);
const concurrency = Number(process.env.CONCURRENCY ?? 8);

const seen = new Set(); // "chain/step" of every handler run
let executed = 0;
let duplicates = 0;
let outOfOrder = 0;
let firstStartAt = 0;
const startedAt = new Map(); // job id → performance.now() at job:start
const wallMs = [];

const tasks = {
  step: async ({ chain, step, length }, helpers) => {
    const key = `${chain}/${step}`;
    if (seen.has(key)) duplicates++;
    if (step > 1 && !seen.has(`${chain}/${step - 1}`)) outOfOrder++;
    seen.add(key);
    if (step < length) await helpers.addJob("step", { chain, step: step + 1, length });
  },
};

// Warnings and errors only: a log line per job would add console I/O a queue does not need.
const logger = new Logger(() => (level, message) => {
  if (level === "error" || level === "warning")
    console.error(`graphile-worker ${level}: ${message}`);
});

const runner = await run({
  connectionString: process.env.DATABASE_URL,
  concurrency,
  taskList: tasks,
  logger,
});

runner.events.on("job:start", ({ job }) => {
  if (!firstStartAt) firstStartAt = Date.now();
  startedAt.set(job.id, performance.now());
});
runner.events.on("job:complete", ({ job, error }) => {
  if (error) return; // retried later by graphile-worker; the parent's check of the table sees it
  wallMs.push(performance.now() - startedAt.get(job.id));
  startedAt.delete(job.id);
  if (++executed === expected) {
    wallMs.sort((a, b) => a - b);
    const at = (p) => wallMs[Math.min(wallMs.length - 1, Math.floor((p / 100) * wallMs.length))];
    const summary = {
      executed,
      distinct: seen.size,
      duplicates,
      outOfOrder,
      firstStartAt,
      handlersDoneAt: Date.now(),
      jobWallP50: at(50),
      jobWallP99: at(99),
    };
    console.log(`queue-anchor-summary ${JSON.stringify(summary)}`);
  }
});

console.log(`queue-anchor worker running (concurrency ${concurrency})`);
