// How late schedules fire: SCHEDULES schedules of research-brief due every minute ("* * * * *",
// UTC, overlap allow), on the embedded database with the worker in the web process, first idle
// for MINUTES due minutes, then as long again while autocannon sends CONNECTIONS kickoffs at
// once. For each due time: fired (the run created: schedule_fires.fired_at − due_at) and started
// (its first task's start − due_at, which also waits for a worker slot). Takes about 2 × MINUTES + 1
// minutes of wall time. Appends to RESULTS.md.
import autocannon from "autocannon";
import { appendResults, machine, run, sleep, stamp, startCrewdeck, stop } from "./common.mjs";

const SCHEDULES = Number(process.env.SCHEDULES ?? 20);
const MINUTES = Number(process.env.MINUTES ?? 2);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 32);

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : Number.NaN;
};
const ms = (x) => `${Math.round(x)} ms`;

run(async () => {
  const server = await startCrewdeck();
  const api = (path, init = {}) =>
    fetch(`${server.url}/api/crews/research-brief${path}`, { ...init, headers: server.headers });
  const ids = [];
  for (let i = 0; i < SCHEDULES; i++) {
    const res = await api("/schedules", {
      method: "POST",
      body: JSON.stringify({
        name: `Every minute ${i}`,
        cron: "* * * * *",
        timezone: "UTC",
        inputs: { topic: "Tides", audience: "sailors" },
        overlap: "allow",
      }),
    });
    if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`);
    ids.push((await res.json()).id);
  }

  /** Waits until `n` more minute boundaries have passed (and 5 s for the last fires to land). */
  const minutes = async (n) => {
    const next = Math.ceil(Date.now() / 60_000) * 60_000;
    const until = next + (n - 1) * 60_000 + 5_000;
    await sleep(until - Date.now());
    return { from: next, to: until };
  };

  /** Lateness of every due time in [from, to). */
  const lateness = async ({ from, to }) => {
    const fired = [];
    const started = [];
    for (const id of ids) {
      const { fires } = await (await api(`/schedules/${id}/fires`)).json();
      for (const f of fires) {
        const due = Date.parse(f.due_at);
        if (due < from || due >= to || !f.execution_id) continue;
        fired.push(Date.parse(f.fired_at) - due);
        // The run's first task starting: when a worker took the run up.
        const status = await (await api(`/status/${f.execution_id}`)).json();
        const first = status.tasks?.[0]?.started_at;
        if (first) started.push(Date.parse(first) - due);
      }
    }
    return { fired, started };
  };

  const idle = await lateness(await minutes(MINUTES));
  let requests = 0;
  const cannon = autocannon({
    url: `${server.url}/api/crews/research-brief/kickoff`,
    method: "POST",
    headers: server.headers,
    body: JSON.stringify({ inputs: { topic: "Heat pumps", audience: "home owners" } }),
    connections: CONNECTIONS,
    duration: MINUTES * 60 + 70,
  });
  cannon.on("response", () => requests++);
  const window = await minutes(MINUTES);
  const loaded = await lateness(window);
  cannon.stop();
  await stop(server);

  const spread = (xs) =>
    xs.length ? `${ms(pct(xs, 50))} / ${ms(pct(xs, 95))} / ${ms(Math.max(...xs))}` : "–";
  // A run still queued when measured (behind the load's backlog: oldest first) has no start.
  const row = (name, { fired, started }) =>
    `| ${name} | ${fired.length} | ${spread(fired)} | ${started.length} of ${fired.length}: ${spread(started)} |`;
  const lines = [
    "",
    `### Schedule lateness — ${stamp()} — ${machine()}`,
    "",
    `${SCHEDULES} schedules due every minute, embedded database, worker in the web process; ${MINUTES} due minutes each. Load: ${CONNECTIONS} connections of POST /kickoff (${Math.round(requests / ((window.to - window.from) / 1000))} req/s answered while measured).`,
    "",
    "| phase | due times | fired late: p50 / p95 / max | runs started when measured: p50 / p95 / max late |",
    "| --- | --- | --- | --- |",
    row("idle", idle),
    row("under kickoff load", loaded),
  ];
  console.log(lines.join("\n"));
  appendResults(lines);
});
