#!/usr/bin/env node
// npm run experiment -- <file.yaml> [--junit <path>] [--json <path>]
//
// Runs an experiment described in a YAML file on a Crewdeck server and exits non-zero when it
// does not pass: 0 passed, 1 a gate failed or the experiment did not complete, 2 it could not
// run (a bad file, an unreachable server, a refusal). CREWDECK_URL and CREWDECK_TOKEN say where
// and as whom; the file's `server` overrides CREWDECK_URL. Ctrl-C stops the experiment.
import fs from "node:fs";
import path from "node:path";
import { parse } from "yaml";

const USAGE = "usage: npm run experiment -- <file.yaml> [--junit <path>] [--json <path>]";

function fail(message, code = 2) {
  console.error(`experiment: ${message}`);
  process.exit(code);
}

function readArgs(argv) {
  const args = { file: undefined, junit: undefined, json: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--junit" || a === "--json") args[a.slice(2)] = argv[++i] ?? fail(USAGE);
    else if (a === "-h" || a === "--help") {
      console.log(USAGE);
      process.exit(0);
    } else if (!args.file) args.file = a;
    else fail(USAGE);
  }
  if (!args.file) fail(USAGE);
  return args;
}

function readSpec(file) {
  let spec;
  try {
    spec = parse(fs.readFileSync(file, "utf8"));
  } catch (err) {
    fail(`${file}: ${err.message}`);
  }
  if (!spec || typeof spec !== "object")
    fail(`${file}: expected a mapping with crew, dataset and variants`);
  for (const key of ["crew", "dataset", "variants"])
    if (spec[key] === undefined) fail(`${file}: '${key}' is required`);
  return spec;
}

async function api(server, token, method, p, body) {
  let res;
  try {
    res = await fetch(new URL(p, server), {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body ? { "content-type": "application/json" } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (err) {
    fail(`${server} cannot be reached: ${err.cause?.message ?? err.message}`);
  }
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (!res.ok) {
    const problems = (json?.errors ?? []).map((e) => `\n  ${e.path}: ${e.message}`).join("");
    fail(`${method} ${p}: ${res.status} ${json?.detail ?? text.slice(0, 300)}${problems}`);
  }
  return json;
}

const xml = (s) =>
  String(s).replace(
    /[<>&"']/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c],
  );

/** JUnit: one test case for the experiment's completion, one per gate and variant. */
function junitOf(x, seconds) {
  const cases = [
    {
      name: "experiment completed",
      failure: x.status === "completed" ? null : `${x.status}: ${x.stop_reason ?? ""}`,
    },
    ...x.gates.map((g) => ({
      name: `${g.variant}: ${g.metric}`,
      failure: g.passed ? null : g.message,
      out: g.message,
    })),
  ];
  const failures = cases.filter((c) => c.failure).length;
  const body = cases
    .map(
      (c) =>
        `    <testcase classname="${xml(x.crew)}.${xml(x.name)}" name="${xml(c.name)}">` +
        (c.failure
          ? `<failure message="${xml(c.failure)}"/>`
          : c.out
            ? `<system-out>${xml(c.out)}</system-out>`
            : "") +
        "</testcase>",
    )
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="crewdeck experiment" tests="${cases.length}" failures="${failures}" time="${seconds}">
  <testsuite name="${xml(x.name)}" tests="${cases.length}" failures="${failures}" time="${seconds}">
${body}
  </testsuite>
</testsuites>
`;
}

function write(file, text) {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  fs.writeFileSync(file, text);
}

function printMatrix(x) {
  const fmt = (v) => (v === null || v === undefined ? "—" : String(Math.round(v * 1000) / 1000));
  console.log(`\n${x.name}: ${x.status}${x.stop_reason ? ` (${x.stop_reason})` : ""}`);
  for (const m of x.matrix.metrics) {
    const cells = x.matrix.stats.filter((s) => s.metric === m.name);
    const row = cells
      .map(
        (s) =>
          `${s.variant} ${fmt(s.mean)} [${fmt(s.ci_low)}, ${fmt(s.ci_high)}]${s.delta ? ` Δ${fmt(s.delta)}` : ""}`,
      )
      .join("   ");
    console.log(`  ${m.name.padEnd(16)} ${row}`);
  }
  for (const g of x.gates)
    console.log(`  ${g.passed ? "pass" : "FAIL"}  ${g.variant}: ${g.message}`);
}

async function main() {
  const args = readArgs(process.argv.slice(2));
  const spec = readSpec(args.file);
  const server = spec.server ?? process.env.CREWDECK_URL ?? "http://127.0.0.1:3000";
  const token = process.env.CREWDECK_TOKEN;
  const { crew, server: _s, report = {}, ...body } = spec;
  body.name ??= path.basename(args.file, path.extname(args.file));
  const base = `/api/crews/${encodeURIComponent(crew)}/experiments`;
  const started = Date.now();
  let x = await api(server, token, "POST", base, body);
  console.log(`experiment ${x.id}: ${x.progress.total} runs of ${crew}`);
  process.once("SIGINT", async () => {
    console.error("\nstopping the experiment…");
    await api(server, token, "POST", `${base}/${x.id}/stop`);
    process.exit(1);
  });
  let shown = "";
  while (x.status === "running") {
    await new Promise((r) => setTimeout(r, 1000));
    x = await api(server, token, "GET", `${base}/${x.id}`);
    const p = x.progress;
    const line = `${p.scored + p.skipped}/${p.total} done, ${p.running} running`;
    if (line !== shown) console.log(`  ${line}`);
    shown = line;
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  printMatrix(x);
  const junit = args.junit ?? report.junit;
  const json = args.json ?? report.json;
  if (junit) write(junit, junitOf(x, seconds));
  if (json) write(json, `${JSON.stringify(x, null, 2)}\n`);
  const passed = x.status === "completed" && x.passed !== false;
  console.log(
    passed ? "\npassed" : `\nnot passed${x.status !== "completed" ? `: ${x.status}` : ""}`,
  );
  process.exit(passed ? 0 : 1);
}

main().catch((err) => fail(err.stack ?? String(err)));
