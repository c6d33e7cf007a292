// GET /status latency for a normal caller, alone and while FLOODERS anonymous clients send bad
// sign-ins as fast as they can (issue 12: 16 of them once raised the median from 45 ms to 2.5 s,
// each scrypt hash being ~50 ms of CPU). Every bad sign-in uses a fresh email and, with
// TRUST_PROXY, a fresh X-Forwarded-For address — a distributed guesser that the per-account and
// per-address locks do not stop — so what bounds the damage here is the hash gate alone.
// Bounded: SAMPLES sequential /status calls per phase; everything it starts, it stops.
// Appends a row to RESULTS.md. Needs a build (`next build`).
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { cleanup, ROOT, run, startCrewdeck } from "./common.mjs";

const FLOODERS = Number(process.env.FLOODERS ?? 16);
const SAMPLES = Number(process.env.SAMPLES ?? 200);
// FLOOD_EMAIL=admin@bench.local: every guess at the one existing account instead (on a build
// without the fixed dummy hash, only a known email costs a hash — use this to compare).
const FLOOD_EMAIL = process.env.FLOOD_EMAIL;

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

async function statusLatencies(web, id) {
  const ms = [];
  for (let i = 0; i < SAMPLES; i++) {
    const t0 = performance.now();
    const res = await fetch(`${web.base()}/status/${id}`, { headers: web.headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`/status answered ${res.status}`);
    ms.push(performance.now() - t0);
  }
  return ms;
}

async function flooder(url, stopped, counts) {
  const csrfRes = await fetch(`${url}/api/auth/csrf`);
  const { csrfToken } = await csrfRes.json();
  const cookie = csrfRes.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  while (!stopped.value) {
    const rnd = crypto.randomBytes(4);
    const res = await fetch(`${url}/api/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie,
        "x-forwarded-for": `10.${rnd[0]}.${rnd[1]}.${rnd[2]}`,
      },
      body: new URLSearchParams({
        csrfToken,
        email: FLOOD_EMAIL ?? `guess-${rnd.toString("hex")}@example.com`,
        password: "not the password",
        callbackUrl: url,
      }),
    });
    await res.arrayBuffer();
    counts[res.status] = (counts[res.status] ?? 0) + 1;
  }
}

run(async () => {
  const web = await startCrewdeck({
    TRUST_PROXY: "true",
    ADMIN_EMAIL: "admin@bench.local",
    ADMIN_PASSWORD: "bench admin password",
  });
  const kickoff = await fetch(`${web.base()}/kickoff`, {
    method: "POST",
    headers: web.headers,
    body: JSON.stringify({ inputs: { topic: "Bench", audience: "machines" } }),
  });
  const { kickoff_id: id } = await kickoff.json();
  await statusLatencies(web, id); // warm-up

  const quiet = await statusLatencies(web, id);

  const stopped = { value: false };
  const counts = {};
  const t0 = performance.now();
  const floods = Array.from({ length: FLOODERS }, () => flooder(web.url, stopped, counts));
  const flooded = await statusLatencies(web, id);
  stopped.value = true;
  await Promise.all(floods);
  const seconds = (performance.now() - t0) / 1000;
  const total = Object.values(counts).reduce((a, b) => a + b, 0);

  const fmt = (xs) => `p50 ${pct(xs, 50).toFixed(1)} ms, p95 ${pct(xs, 95).toFixed(1)} ms`;
  const replies = Object.entries(counts)
    .map(([s, n]) => `${n}× ${s}`)
    .join(", ");
  console.log(`/status alone:                      ${fmt(quiet)}`);
  console.log(`/status with ${FLOODERS} bad sign-in loops: ${fmt(flooded)}`);
  console.log(
    `bad sign-ins: ${total} in ${seconds.toFixed(1)} s (${(total / seconds).toFixed(0)}/s): ${replies} (302 = checked and refused, 503 = hash gate full)`,
  );

  const date = new Date().toISOString().slice(0, 16).replace("T", " ");
  const machine = `${os.availableParallelism()} × ${os.cpus()[0]?.model.split(" ")[0] ?? "?"}, Node ${process.version}`;
  fs.appendFileSync(
    path.join(ROOT, "bench/RESULTS.md"),
    `| ${date} | ${machine} | GET /status (1 client, ${SAMPLES} sequential) alone vs during ${FLOODERS} loops of bad sign-ins (${FLOOD_EMAIL ? "one existing email" : "fresh email"} + fresh X-Forwarded-For each, TRUST_PROXY), embedded | 1 | – | ${pct(quiet, 50).toFixed(1)} → ${pct(flooded, 50).toFixed(1)} | ${pct(quiet, 95).toFixed(1)} → ${pct(flooded, 95).toFixed(1)} | sign-ins ${(total / seconds).toFixed(0)}/s: ${replies} |\n`,
  );
  await cleanup();
});
