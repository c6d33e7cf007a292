// Where a V8 CPU profile (.cpuprofile, from `node --cpu-prof` or CPU_PROF_DIR) spends its time:
// self time by function and by file, and inclusive time (the function or anything it called) of
// the application's own functions. `node bench/cpu-profile-top.mjs <file> [name filter regexp]`
import fs from "node:fs";
import path from "node:path";

const TOP = Number(process.env.TOP ?? 20);
const [file, filter] = process.argv.slice(2);
if (!file) {
  console.error("usage: node bench/cpu-profile-top.mjs <file.cpuprofile> [filter]");
  process.exit(2);
}
const profile = JSON.parse(fs.readFileSync(file, "utf8"));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const where = (f) =>
  f.url ? path.relative(process.cwd(), f.url.replace(/^file:\/\//, "")) : "(native)";
const label = (f) => `${f.functionName || "(anonymous)"}  ${where(f)}:${f.lineNumber + 1}`;

// A sample's time is its timeDelta; self time goes to the sampled node, inclusive time to every
// distinct function on its stack.
const self = new Map();
const byFile = new Map();
const inclusive = new Map();
let total = 0;
profile.samples.forEach((id, i) => {
  const us = profile.timeDeltas[i] ?? 0;
  total += us;
  const f = nodes.get(id).callFrame;
  self.set(label(f), (self.get(label(f)) ?? 0) + us);
  byFile.set(where(f), (byFile.get(where(f)) ?? 0) + us);
  const seen = new Set();
  for (let n = id; n !== undefined; n = parent.get(n)) {
    const key = label(nodes.get(n).callFrame);
    if (!seen.has(key)) {
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + us);
    }
  }
});
const show = (title, map, keep = () => true) => {
  console.log(`\n${title}`);
  for (const [k, us] of [...map]
    .filter(([k]) => keep(k))
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP))
    console.log(
      `${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${k}`,
    );
};
const idle = [...self].find(([k]) => k.startsWith("(idle)"))?.[1] ?? 0;
console.log(
  `${file}: ${(total / 1e6).toFixed(1)} s sampled, ${(((total - idle) / total) * 100).toFixed(0)}% busy`,
);
show("self time by function", self);
show("self time by file", byFile);
const re = filter ? new RegExp(filter) : /\.next\/server|bench\/|lib\/|scripts\//;
show(`inclusive time, functions matching ${re}`, inclusive, (k) => re.test(k));
