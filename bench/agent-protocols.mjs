// What the agent protocols cost per request, beside the HTTP API reads they stand for (autocannon,
// CONNECTIONS × DURATION s, ROUNDS rounds taken in turns, medians): MCP's tools/list (a server
// built for each request, as the endpoint is stateless) beside GET /api/crews, and A2A's GetTask
// beside GET /status of the same finished run. Embedded database, RUN_WORKER on (one run is made
// first). Appends to RESULTS.md.
import { appendResults, machine, run, sleep, stamp, startCrewdeck, stop } from "./common.mjs";
import { cpuMs, load } from "./measure.mjs";

const DURATION = Number(process.env.DURATION ?? 8);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 16);
const ROUNDS = Number(process.env.ROUNDS ?? 3);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rpc = (method, params) => JSON.stringify({ jsonrpc: "2.0", id: 1, method, params });

run(async () => {
  const server = await startCrewdeck({});
  const kick = await fetch(`${server.base()}/kickoff`, {
    method: "POST",
    headers: server.headers,
    body: JSON.stringify({ inputs: { topic: "Heat pumps", audience: "home owners" } }),
  });
  if (!kick.ok) throw new Error(`kickoff: ${kick.status} ${await kick.text()}`);
  const { kickoff_id: id } = await kick.json();
  for (let i = 0; i < 200; i++) {
    const s = await (
      await fetch(`${server.base()}/status/${id}`, { headers: server.headers })
    ).json();
    if (s.status === "completed") break;
    if (s.status === "error" || i === 199) throw new Error(`the run did not complete: ${s.status}`);
    await sleep(100);
  }
  const post = (path, body, extra = {}) => ({
    url: `${server.url}${path}`,
    method: "POST",
    headers: { ...server.headers, ...extra },
    body,
  });
  const loads = [
    {
      name: "GET /api/crews (the catalogue)",
      options: { url: `${server.url}/api/crews`, headers: server.headers },
    },
    {
      name: "MCP tools/list (POST /api/mcp)",
      options: post("/api/mcp", rpc("tools/list", {}), {
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
      }),
    },
    {
      name: "GET /status of a finished run",
      options: { url: `${server.base()}/status/${id}`, headers: server.headers },
    },
    {
      name: "A2A GetTask of the same run",
      options: post("/api/a2a/research-brief", rpc("GetTask", { id }), { "a2a-version": "1.0" }),
    },
  ];
  const rounds = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const results = [];
    for (const l of loads) {
      await load({ ...l.options, connections: CONNECTIONS, duration: 2 }); // warm-up
      const cpu0 = cpuMs(server.pid);
      const r = await load({ ...l.options, connections: CONNECTIONS, duration: DURATION });
      const cpu = (cpuMs(server.pid) - cpu0) / r.total;
      console.log(
        `${l.name.padEnd(40)} ${r.rps} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  ${cpu.toFixed(2)} CPU-ms`,
      );
      results.push({ ...r, cpu });
    }
    rounds.push(results);
  }
  await stop(server);
  const rows = loads.map((l, i) => {
    const of = (f) => median(rounds.map((r) => f(r[i])));
    return `| ${l.name} | ${of((r) => r.rps)} | ${of((r) => r.p50)} ms | ${of((r) => r.p99)} ms | ${of((r) => r.cpu).toFixed(2)} ms |`;
  });
  appendResults([
    "",
    `### Agent protocols — ${stamp()} — ${machine()}`,
    "",
    `${CONNECTIONS} connections, ${DURATION} s per load, median of ${ROUNDS} rounds; embedded database.`,
    "",
    "| load | req/s | p50 | p99 | web CPU per request |",
    "| --- | --- | --- | --- | --- |",
    ...rows,
  ]);
});
