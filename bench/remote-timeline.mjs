// Remote deployments: the delay from a step written on the remote to its appearance in the
// dashboard's live timeline (an SSE subscriber of the dashboard, one machine, one clock).
//   by webhook — a remote Crewdeck that calls the dashboard back;
//   by polling — a dashboard whose PUBLIC_URL leads nowhere, so the remote's webhooks all fail
//                and its event log reaches the timeline only through the poller (2 s, backing off).
// Each runs the three-step example crew (15 steps) with OFFLINE_MODEL_DELAY_MS per step.
// Bounded (60 s per run); stops what it started. Appends to RESULTS.md.
import path from "node:path";
import {
  appendResults,
  freePort,
  machine,
  ROOT,
  run,
  stamp,
  startCrewdeck,
  TOKEN,
} from "./common.mjs";
import { percentile, readTimeline } from "./measure.mjs";

const DELAY_MS = process.env.OFFLINE_MODEL_DELAY_MS ?? "400";
const CREWS_DIR = path.join(ROOT, "tests/fixtures/crews");
const STEP_TYPES = new Set(["thought", "tool_call", "tool_result", "answer"]);

/** Every step event of the dashboard's stream of `id`, with when it arrived. */
function watch(dashboard, crew, id) {
  const arrivals = [];
  return new Promise((resolve, reject) => {
    const close = readTimeline(
      `${dashboard.url}/api/crews/${crew}/executions/${id}/stream`,
      `Bearer ${TOKEN}`,
      {
        onEvent: (e, at) => {
          if (STEP_TYPES.has(e.type)) arrivals.push({ ...e, at });
        },
        onEnd: (ok, why) =>
          ok
            ? resolve(arrivals)
            : reject(new Error(`the stream broke off${why ? `: ${why}` : ""}`)),
      },
    );
    setTimeout(() => {
      close();
      reject(new Error("the remote run did not finish within 60 s"));
    }, 60_000).unref();
  });
}

async function measure(label, dashboard, remote) {
  const headers = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
  const created = await fetch(`${dashboard.url}/api/deployments`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      name: label,
      base_url: `${remote.url}/api/crews/three-step`,
      token: TOKEN,
    }),
  });
  const { slug } = await created.json();
  const crew = `@${slug}`;
  const kickoff = await fetch(`${dashboard.url}/api/crews/${crew}/kickoff`, {
    method: "POST",
    headers,
    body: JSON.stringify({ inputs: { job: "inventory" } }),
  });
  const { kickoff_id: id } = await kickoff.json();
  const arrivals = await watch(dashboard, crew, id);
  // The same steps on the remote, with the time each was written there.
  const status = await (
    await fetch(`${dashboard.url}/api/crews/${crew}/status/${id}`, { headers })
  ).json();
  const remoteId = (
    await (
      await fetch(`${dashboard.url}/api/crews/${crew}/executions/${id}/events`, { headers })
    ).json()
  ).events.find((e) => e.type === "execution_queued").data.remote_id;
  const remoteSteps = (
    await (
      await fetch(`${remote.url}/api/crews/three-step/executions/${remoteId}/events`, { headers })
    ).json()
  ).events.filter((e) => STEP_TYPES.has(e.type));
  if (remoteSteps.length !== arrivals.length)
    throw new Error(`${label}: ${remoteSteps.length} steps remotely, ${arrivals.length} here`);
  const delays = arrivals.map((a, i) => a.at - Date.parse(remoteSteps[i].created_at));
  if (process.env.VERBOSE) console.log(arrivals.map((a, i) => `${a.type}:${delays[i]}`).join(" "));
  delays.sort((a, b) => a - b);
  const row = {
    label,
    status: status.status,
    n: delays.length,
    p50: percentile(delays, 50),
    p95: percentile(delays, 95),
    max: delays.at(-1),
  };
  console.log(
    `${label.padEnd(44)} ${row.n} steps  p50 ${row.p50} ms  p95 ${row.p95} ms  max ${row.max} ms`,
  );
  return row;
}

run(async () => {
  const dashboard = async (reachable) => {
    const port = await freePort();
    // Unreachable: the URL given to the remote leads nowhere, so its webhooks all fail.
    const publicPort = reachable ? port : await freePort();
    return startCrewdeck({
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${publicPort}`,
      DEPLOYMENT_ALLOWED_NETWORKS: "127.0.0.0/8",
    });
  };
  const remote = await startCrewdeck({
    CREWS_DIR,
    OFFLINE_MODEL_DELAY_MS: DELAY_MS,
    WORKER_POLL_MS: "100",
    WEBHOOK_ALLOWED_NETWORKS: "127.0.0.0/8",
  });
  const rows = [
    await measure("remote Crewdeck, by webhook", await dashboard(true), remote),
    await measure(
      "remote Crewdeck, webhooks cannot reach us: by polling",
      await dashboard(false),
      remote,
    ),
  ];
  appendResults(
    rows.map(
      (r) =>
        `| ${stamp()} | ${machine()} | remote step → dashboard timeline, ${r.label} (${r.n} steps, ${DELAY_MS} ms each) | – | – | p50 ${r.p50} | p95 ${r.p95} · max ${r.max} | |`,
    ),
  );
});
