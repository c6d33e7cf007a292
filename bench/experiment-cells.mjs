// An experiment of CELLS runs on the offline model, against the same number of plain kickoffs run
// by the same number of worker slots (PARALLEL): the difference, per run, is what an experiment's
// cell costs beyond its run (creating its run, noticing it ended, scoring it, starting the next).
// Research-brief, embedded database, worker in the web process, OFFLINE_MODEL_DELAY_MS=0.
// Appends to RESULTS.md.
import { appendResults, machine, run, sleep, stamp, startCrewdeck } from "./common.mjs";

const ROWS = Number(process.env.ROWS ?? 100);
const REPEATS = Number(process.env.REPEATS ?? 5);
const PARALLEL = Number(process.env.PARALLEL ?? 16);
const CELLS = ROWS * REPEATS * 2;

run(async () => {
  const server = await startCrewdeck({ WORKER_CONCURRENCY: String(PARALLEL) });
  const api = async (method, path, body) => {
    const res = await fetch(`${server.url}/api/crews/research-brief${path}`, {
      method,
      headers: server.headers,
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const rows = Array.from({ length: ROWS }, (_, i) => ({
    inputs: { topic: `Topic ${i}`, audience: "readers" },
    expected: { write: `A brief about topic ${i} for readers.` },
  }));
  const dataset = await api("POST", "/datasets", { name: "bench", rows });

  // Plain runs: CELLS kickoffs queued at once (the workers take PARALLEL at a time), then waited
  // for; the same engine work as the experiment's, without its bookkeeping.
  const done = (s) => ["completed", "error", "cancelled"].includes(s.status);
  const plainStart = performance.now();
  const ids = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < CELLS) {
        const i = next++;
        ids[i] = (await api("POST", "/kickoff", { inputs: rows[i % ROWS].inputs })).kickoff_id;
      }
    }),
  );
  for (const id of ids.toReversed())
    while (!done(await api("GET", `/status/${id}`))) await sleep(20);
  const plainS = (performance.now() - plainStart) / 1000;

  // The experiment: the same number of runs, PARALLEL at once, each scored by three checks.
  const expStart = performance.now();
  const x = await api("POST", "/experiments", {
    name: "bench",
    dataset: dataset.id,
    variants: [
      "current",
      {
        name: "terse",
        changes: {
          tasks: { write: { description: "Write a three-line brief on {topic} for {audience}." } },
        },
      },
    ],
    repeats: REPEATS,
    parallelism: PARALLEL,
    scorers: [
      { type: "contains", value: "readers" },
      { type: "similarity" },
      { type: "length", unit: "words" },
    ],
  });
  let ended;
  for (;;) {
    ended = await api("GET", `/experiments/${x.id}`);
    if (ended.status !== "running") break;
    await sleep(20);
  }
  const expS = (performance.now() - expStart) / 1000;
  if (ended.status !== "completed") throw new Error(`experiment ended ${ended.status}`);
  const perPlain = (plainS / CELLS) * 1000;
  const perCell = (expS / CELLS) * 1000;
  const summary = `${CELLS} cells (${ROWS} rows × 2 variants × ${REPEATS}), ${PARALLEL} at once: experiment ${expS.toFixed(1)} s (${perCell.toFixed(1)} ms/cell), plain kickoffs ${plainS.toFixed(1)} s (${perPlain.toFixed(1)} ms/run), difference ${(perCell - perPlain).toFixed(1)} ms/cell`;
  console.log(summary);
  appendResults([
    "",
    `### Experiment cells — ${stamp()} — ${machine()}`,
    "",
    "| cells | parallel | experiment | per cell | plain kickoffs | per run | difference per cell |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    `| ${CELLS} | ${PARALLEL} | ${expS.toFixed(1)} s | ${perCell.toFixed(1)} ms | ${plainS.toFixed(1)} s | ${perPlain.toFixed(1)} ms | ${(perCell - perPlain).toFixed(1)} ms |`,
  ]);
});
