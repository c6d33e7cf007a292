import { afterAll, beforeAll, expect, it } from "vitest";
import { call, crewClient, type Json } from "../support/api";
import {
  ensureBuild,
  FIXTURE_CREWS,
  freePort,
  ownPostgres,
  type Proc,
  startServer,
  startWorkerProcess,
  TEST_ADMIN,
  TEST_CREW_TOKEN,
  tempDir,
} from "../support/harness";
import { type Exposition, parseExposition, sampleValue } from "../support/prometheus-text";

// A standalone `npm run worker` (the scale-out topology, which needs PostgreSQL: the embedded
// database is one process's) has no web server: with WORKER_METRICS_PORT it serves what it
// counts at /metrics, to METRICS_ALLOWED_NETWORKS only. Here, beside the chaos tests, because
// this suite always runs its own PostgreSQL.
const procs: Proc[] = [];
let database: ReturnType<typeof ownPostgres>;

beforeAll(() => {
  ensureBuild();
  database = ownPostgres();
});
afterAll(async () => {
  await Promise.all(procs.map((p) => p.kill("SIGKILL")));
  database?.destroy();
});

async function scrape(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<Exposition> {
  const r = await call(base, "GET", path, { headers });
  expect(r.status, r.text).toBe(200);
  return parseExposition(r.text);
}

it("serves what it counts on WORKER_METRICS_PORT, to allowed networks only", async () => {
  const env = {
    CREWS_DIR: FIXTURE_CREWS,
    CREW_TOKEN: TEST_CREW_TOKEN,
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    DATA_DIR: tempDir("prometheus-worker"),
    OFFLINE_MODEL_DELAY_MS: "0",
    WORKER_POLL_MS: "100",
    DATABASE_URL: database.url,
  };
  const web = await startServer({ ...env, RUN_WORKER: "false" });
  procs.push(web);
  const port = await freePort();
  const worker = await startWorkerProcess({
    ...env,
    WORKER_METRICS_PORT: String(port),
    HOST: "127.0.0.1",
    METRICS_ALLOWED_NETWORKS: "127.0.0.0/8",
  });
  procs.push(worker);
  const brief = crewClient(web.url, "brief", TEST_CREW_TOKEN);
  const id = await brief.start({ topic: "worker", audience: "ops" });
  await brief.waitFor(id, (s: Json) => s.status === "completed", 120_000);
  const e = await scrape(`http://127.0.0.1:${port}`, "/metrics");
  expect(
    sampleValue(e, "crewdeck_runs_finished_total", { crew: "brief", outcome: "completed" }),
  ).toBe(1);
  // The web process ran nothing: its counters stay at zero.
  const webSide = await scrape(web.url, "/api/metrics", {
    authorization: `Bearer ${TEST_CREW_TOKEN}`,
  });
  expect(sampleValue(webSide, "crewdeck_runs_finished_total", { crew: "brief" })).toBe(0);
  const other = await call(`http://127.0.0.1:${port}`, "GET", "/elsewhere");
  expect(other.status).toBe(404);
}, 180_000);
