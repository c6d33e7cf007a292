// Webhook delivery, measured end to end on loopback: executions of the example crew with step,
// task and crew webhooks to a receiver on 127.0.0.2. Two phases:
//   light — one execution at a time (PACE_MS apart): the time from an event being written to its
//           first delivery attempt reaching the receiver, p50/p95, when the system is not busy;
//   burst — RUNS executions kicked off at once: deliveries per second while the engine runs
//           them all (engine and outbox share the database, as in production).
// Bounded, stops everything it started. Appends to RESULTS.md.
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { freePort } from "./common.mjs";

const root = path.resolve(import.meta.dirname, "..");
const RUNS = Number(process.env.RUNS ?? 40);
const LIGHT_RUNS = Number(process.env.LIGHT_RUNS ?? 10);
const PACE_MS = Number(process.env.PACE_MS ?? 1500);
const TOKEN = "bench-org-token-0123456789abcdef";
const children = [];

async function main() {
  const firstSeen = new Map(); // webhook-id → { receivedAt, eventAt }
  let requests = 0;
  const receiver = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      requests++;
      const id = req.headers["webhook-id"];
      if (!firstSeen.has(id))
        firstSeen.set(id, {
          receivedAt: Date.now(),
          eventAt: Date.parse(JSON.parse(raw).timestamp),
        });
      res.writeHead(204).end();
    });
  });
  await new Promise((r) => receiver.listen(0, "127.0.0.2", r));
  const hook = (p) => `http://127.0.0.2:${receiver.address().port}${p}`;

  const port = await freePort();
  const child = spawn(
    process.execPath,
    ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"],
    {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-bench-wh-")),
        CREW_TOKEN: TOKEN,
        OFFLINE_MODEL_DELAY_MS: process.env.OFFLINE_MODEL_DELAY_MS ?? "100", // model steps take time in real life
        WEBHOOK_ALLOWED_NETWORKS: "127.0.0.2/32",
        ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  children.push(child);
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  const t0 = Date.now();
  while (!/Crewdeck is ready/.test(out)) {
    if (Date.now() - t0 > 60_000) throw new Error(out);
    await new Promise((r) => setTimeout(r, 50));
  }
  const base = `http://127.0.0.1:${port}/api/crews/research-brief`;
  const headers = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };

  async function phase(runs, paceMs) {
    firstSeen.clear();
    requests = 0;
    const started = Date.now();
    for (let i = 0; i < runs; i++) {
      await fetch(`${base}/kickoff`, {
        method: "POST",
        headers,
        body: JSON.stringify({
          inputs: { topic: `t${i}`, audience: "a" },
          stepWebhookUrl: hook("/step"),
          taskWebhookUrl: hook("/task"),
          crewWebhookUrl: hook("/crew"),
        }),
      });
      if (paceMs) await new Promise((r) => setTimeout(r, paceMs));
    }
    // Done when nothing new has arrived for a second.
    let last = -1;
    while (firstSeen.size !== last || requests === 0) {
      last = firstSeen.size;
      await new Promise((r) => setTimeout(r, 1000));
      if (Date.now() - started > 300_000) throw new Error("deliveries did not finish in 5 minutes");
    }
    const all = [...firstSeen.values()];
    const span = (Math.max(...all.map((x) => x.receivedAt)) - started) / 1000;
    const lat = all.map((x) => x.receivedAt - x.eventAt).sort((a, b) => a - b);
    const pct = (p) => lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))];
    return {
      deliveries: all.length,
      perSecond: Math.round(all.length / span),
      p50: pct(50),
      p95: pct(95),
      span,
    };
  }

  const light = await phase(LIGHT_RUNS, PACE_MS);
  console.log(
    `light: ${light.deliveries} deliveries, event → first attempt p50 ${light.p50} ms, p95 ${light.p95} ms`,
  );
  const burst = await phase(RUNS, 0);
  console.log(
    `burst: ${burst.deliveries} deliveries in ${burst.span.toFixed(1)} s: ${burst.perSecond}/s; event → first attempt p50 ${burst.p50} ms, p95 ${burst.p95} ms`,
  );

  const file = path.join(root, "bench/RESULTS.md");
  const date = new Date().toISOString().slice(0, 16).replace("T", " ");
  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}`;
  const db = process.env.DATABASE_URL ? "PostgreSQL" : "embedded";
  fs.appendFileSync(
    file,
    `| ${date} | ${machine} | webhooks, light (${LIGHT_RUNS} runs ${PACE_MS} ms apart, ${db}) | – | – | event → first attempt p50 ${light.p50} | p95 ${light.p95} | |\n` +
      `| ${date} | ${machine} | webhooks, burst (${RUNS} runs at once, ${burst.deliveries} deliveries, ${db}) | – | ${burst.perSecond} deliveries/s | event → first attempt p50 ${burst.p50} | p95 ${burst.p95} | |\n`,
  );
  receiver.close();
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const c of children) c.kill("SIGTERM");
    setTimeout(() => process.exit(), 500).unref();
  });
