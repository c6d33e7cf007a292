// Replays the inputs that once held the whole process (issue: "Bound everything a caller can make
// expensive") against one server, while a probe asks `/api/healthz` every 50 ms. Each attack is
// one phase; the figure per phase is the probe's slowest answer, which stays under a second only
// if nothing a caller sent ran unbounded on the event loop. Embedded database, worker in the web
// process. Appends to RESULTS.md.
//
//   ReDoS        an experiment whose regex scorer is `(a+)+\1b` (backtracking: 125 s on 31
//                characters), then `(a+)+!` scoring outputs that hold 40 a's
//   CEL          a trigger mapping nesting `map` three deep over a 300-item payload, and a
//                220-character expression nesting list literals with no payload at all
//   each         a flow whose `each` goes over 60,000 kickoff items (once 213 s), then over 5,000
//   rows         10 MB and 5 MB of dataset rows, CSV with NUL bytes, JSON Lines with lone surrogates
import fs from "node:fs";
import path from "node:path";
import {
  appendResults,
  machine,
  ROOT,
  run,
  sleep,
  stamp,
  startCrewdeck,
  tempDir,
} from "./common.mjs";

const PROBE_MS = 50;
const PHASE_LIMIT_MS = Number(process.env.PHASE_LIMIT_MS ?? 120_000);

const FLOW = `schema: crewai.flow/v1
name: FanOut
state:
  type: json_schema
  json_schema:
    type: object
    properties:
      items: { type: array, items: { type: string } }
    required: [items]
methods:
  fan:
    start: true
    do:
      call: each
      in: "\${state.items}"
      do:
        - name: line
          action: { call: expression, expr: "'- ' + item" }
`;

/** Asks /api/healthz one request at a time; `mark(name)` starts a phase, `slowest()` ends it. */
function startProbe(url) {
  let phase = { name: "idle", slowest: 0, answers: 0 };
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const t0 = performance.now();
      // A held event loop answers late or never: the probe gives up after 60 s and counts that.
      const res = await fetch(`${url}/api/healthz`, { signal: AbortSignal.timeout(60_000) }).catch(
        () => null,
      );
      const took = performance.now() - t0;
      if (res) await res.arrayBuffer();
      phase.slowest = Math.max(phase.slowest, took);
      phase.answers += res?.ok ? 1 : 0;
      await sleep(PROBE_MS);
    }
  })();
  return {
    mark(name) {
      const ended = phase;
      phase = { name, slowest: 0, answers: 0 };
      return ended;
    },
    async stop() {
      stopped = true;
      await loop;
      return phase;
    },
  };
}

run(async () => {
  const crews = tempDir("crewdeck-budget-crews-");
  fs.cpSync(path.join(ROOT, "crews/research-brief"), path.join(crews, "research-brief"), {
    recursive: true,
  });
  fs.mkdirSync(path.join(crews, "fan-out"));
  fs.writeFileSync(path.join(crews, "fan-out/flow.yaml"), FLOW);
  const server = await startCrewdeck({
    CREWS_DIR: crews,
    TRIGGER_RATE_PER_MINUTE: "1000",
    OFFLINE_MODEL_DELAY_MS: "0",
  });
  const call = async (method, url, body, headers = {}) => {
    const res = await fetch(`${server.url}${url}`, {
      method,
      headers: { ...server.headers, ...headers },
      body: typeof body === "string" || body === undefined ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(PHASE_LIMIT_MS),
    });
    const text = await res.text();
    return { status: res.status, text, json: () => JSON.parse(text) };
  };
  const until = async (what, check) => {
    const t0 = Date.now();
    while (Date.now() - t0 < PHASE_LIMIT_MS) {
      if (await check()) return "ended";
      await sleep(250);
    }
    return `still going after ${PHASE_LIMIT_MS / 1000} s (${what})`;
  };
  const probe = startProbe(server.url);
  const rows = [];
  const phase = async (name, attack) => {
    probe.mark(name);
    const t0 = performance.now();
    const answer = await attack();
    const seconds = ((performance.now() - t0) / 1000).toFixed(1);
    const { slowest, answers } = probe.mark("between");
    rows.push({ name, answer, seconds, slowest: Math.round(slowest), answers });
    console.log(`${name}: ${answer}; ${seconds} s; healthz slowest ${Math.round(slowest)} ms`);
  };
  const brief = "/api/crews/research-brief";

  // Next.js loads a route's code on its first request, on the event loop: every route the
  // attacks use is asked once with ordinary input first, so the phases measure the attacks.
  await phase("warm-up: each route once, ordinary input", async () => {
    const ds = await call("POST", `${brief}/datasets`, {
      name: "warm",
      rows: [{ inputs: { topic: "tea", audience: "readers" } }],
    });
    const { id } = ds.json();
    await call("POST", `${brief}/datasets/${id}/rows`, "topic,audience\ncoffee,readers", {
      "content-type": "text/csv",
    });
    const x = await call("POST", `${brief}/experiments`, {
      name: "warm",
      dataset: id,
      variants: ["current"],
      scorers: [{ type: "regex", name: "any", pattern: "tea" }],
    });
    await call("GET", `${brief}/experiments/${x.json().id}`);
    const t = (
      await call("POST", `${brief}/triggers`, {
        name: "warm",
        signature: "shared",
        mapping: { topic: "payload.topic", audience: '"readers"' },
      })
    ).json();
    await call("POST", `/api/triggers/${t.id}`, JSON.stringify({ topic: "tea" }), {
      authorization: `Bearer ${t.secret}`,
      "idempotency-key": "warm",
    });
    const f = await call("POST", "/api/crews/fan-out/kickoff", { inputs: { items: ["a", "b"] } });
    await call("GET", `/api/crews/fan-out/status/${f.json().kickoff_id}`);
    return `dataset ${ds.status}, experiment ${x.status}, flow ${f.status}`;
  });

  await phase("ReDoS: regex scorer (a+)+\\1b", async () => {
    const added = await call("POST", `${brief}/datasets`, {
      name: "a's",
      rows: Array.from({ length: 4 }, () => ({
        inputs: { topic: "a".repeat(40), audience: "a".repeat(40) },
      })),
    });
    const ds = added.json();
    const experiment = (scorer) =>
      call("POST", `${brief}/experiments`, {
        name: `redos ${scorer.pattern}`,
        dataset: ds.id,
        variants: ["current"],
        scorers: [scorer],
      });
    const backref = await experiment({ type: "regex", name: "backref", pattern: "(a+)+\\1b" });
    const nested = await experiment({ type: "regex", name: "nested", pattern: "(a+)+!" });
    let ended = "not started";
    if (nested.status === 202) {
      const { id } = nested.json();
      ended = await until("experiment", async () => {
        const x = (await call("GET", `${brief}/experiments/${id}`)).json();
        return x.status !== "running";
      });
    }
    return `rows ${added.status}; (a+)+\\1b ${backref.status}; (a+)+! ${nested.status}, ${ended}`;
  });

  await phase("CEL: nested map over 300 items, and over literals", async () => {
    const trigger = async (mapping) => {
      const res = await call("POST", `${brief}/triggers`, {
        name: `cel ${Object.keys(mapping)[0]}`,
        signature: "shared",
        mapping,
      });
      return res.status === 201 ? { status: 201, ...res.json() } : { status: res.status };
    };
    const deep = "payload.items.map(a, payload.items.map(b, payload.items.map(c, a + b + c)))";
    const literals = `[${Array.from({ length: 20 }, (_, i) => i).join(",")}]`;
    const noPayload = `string(size(${literals}.map(a, ${literals}.map(b, ${literals}.map(c, ${literals}.map(d, a+b+c+d))))))`;
    const results = [];
    for (const [name, expr, payload] of [
      ["300 items", `string(size(${deep}))`, { items: Array.from({ length: 300 }, (_, i) => i) }],
      [`${noPayload.length} chars, no payload`, noPayload, {}],
    ]) {
      const t = await trigger({ topic: expr, audience: '"readers"' });
      if (t.status !== 201) {
        results.push(`${name}: trigger ${t.status}`);
        continue;
      }
      const delivery = await call("POST", `/api/triggers/${t.id}`, JSON.stringify(payload), {
        authorization: `Bearer ${t.secret}`,
        "idempotency-key": `bench-${name}`,
      });
      results.push(`${name}: delivery ${delivery.status}`);
    }
    return results.join("; ");
  });

  await phase("each over 60,000 items, then 5,000", async () => {
    const items = (n) => Array.from({ length: n }, (_, i) => `i${i}`);
    const out = [];
    for (const n of [60_000, 5_000]) {
      const res = await call("POST", "/api/crews/fan-out/kickoff", { inputs: { items: items(n) } });
      if (res.status !== 200) {
        out.push(`${n}: kickoff ${res.status}`);
        continue;
      }
      const id = res.json().kickoff_id;
      let status = "";
      const ended = await until("flow", async () => {
        status = (await call("GET", `/api/crews/fan-out/status/${id}`)).json().status;
        return !["queued", "running"].includes(status);
      });
      out.push(`${n}: ${status} (${ended})`);
    }
    return out.join("; ");
  });

  await phase("10 MB, then 5 MB, of hostile dataset rows", async () => {
    const ds = (
      await call("POST", `${brief}/datasets`, {
        name: "hostile",
        rows: [{ inputs: { topic: "fine", audience: "readers" } }],
      })
    ).json();
    const line = (i) => `t\u0000${i},"${"x".repeat(60)}\u0000"`;
    const lines = ["topic,audience"];
    for (let i = 0, size = 0; size < 10_000_000; i++)
      size += lines[lines.push(line(i)) - 1].length + 1;
    const csv = await call("POST", `${brief}/datasets/${ds.id}/rows`, lines.join("\n"), {
      "content-type": "text/csv",
    });
    const jsonl = [];
    for (let i = 0, size = 0; size < 10_000_000; i++) {
      const l = `{"inputs":{"topic":"t\\ud800${i}","audience":"${"y".repeat(60)}\\udfff"}}`;
      jsonl.push(l);
      size += l.length + 1;
    }
    const jl = await call("POST", `${brief}/datasets/${ds.id}/rows`, jsonl.join("\n"), {
      "content-type": "application/jsonl",
    });
    // Under the 5 MiB upload limit, so the rows are read, not refused at the door.
    const under = (text) => text.slice(0, 5 * 1024 * 1024 - 1024);
    const csvUnder = await call(
      "POST",
      `${brief}/datasets/${ds.id}/rows`,
      under(lines.join("\n")),
      {
        "content-type": "text/csv",
      },
    );
    const jlUnder = await call("POST", `${brief}/datasets/${ds.id}/rows`, under(jsonl.join("\n")), {
      "content-type": "application/jsonl",
    });
    return `10 MB: CSV ${csv.status}, JSON Lines ${jl.status}; 5 MB: CSV ${csvUnder.status}, JSON Lines ${jlUnder.status}`;
  });

  await probe.stop();
  const worst = Math.max(...rows.map((r) => r.slowest));
  console.log(`\nslowest /api/healthz across every phase: ${worst} ms (goal: under 1,000 ms)`);
  appendResults([
    "",
    `### Caller-controlled work (bench/caller-budgets.mjs), ${stamp()}, ${machine()}`,
    "",
    "| attack | what the server answered | phase s | slowest /api/healthz ms | healthz answers |",
    "| --- | --- | --- | --- | --- |",
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.answer.replaceAll("|", "\\|")} | ${r.seconds} | ${r.slowest} | ${r.answers} |`,
    ),
  ]);
  if (worst >= 1000) process.exitCode = 1;
});
