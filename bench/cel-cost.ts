// How long the costliest CEL expressions the cost limit lets through take (lib/util/cel.ts):
// for each kind of work a caller can ask for, the largest input whose estimate is within
// CEL_COST_LIMIT, then the evaluation's slowest of a few runs. In process, V8's defaults (as the
// server runs). The figure to watch: the slowest row, what one delivery or flow step can hold the
// event loop for.
import { CEL_COST_LIMIT, Cel, CelBudget } from "@/lib/util/cel";
import { toCel } from "@/lib/util/cel-values";

const cel = new Cel({ variables: { payload: "dyn" }, homogeneousLiterals: false });
const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const literal = (n: number) => `[${range(n).join(",")}]`;

// Each: the expression and the payload for a size n.
const FAMILIES: Record<string, (n: number) => [string, unknown]> = {
  "3 nested map over a literal": (n) => [
    `${literal(n)}.map(a, ${literal(n)}.map(b, ${literal(n)}.map(c, a + b + c)))`,
    {},
  ],
  "3 nested exists over the payload": (n) => [
    "payload.map(a, payload.map(b, payload.exists(c, c == a + b + 1000)))",
    range(n),
  ],
  "filter over map items": (n) => [
    "payload.filter(x, x.tags.exists(t, t == 'bug')).map(x, x.name)",
    range(n).map((i) => ({ name: `n${i}`, tags: ["a", "b", "bug"] })),
  ],
  "string + in a map": (n) => [
    "payload.items.map(x, payload.s + string(x))",
    { items: range(n), s: "x".repeat(1000) },
  ],
  "list + list doubling": (n) => [
    "cel.bind(a, payload + payload, cel.bind(b, a + a, cel.bind(c, b + b, size(c))))",
    range(n),
  ],
  "split and join": (n) => ["payload.split('').join('-').size()", "ab".repeat(n)],
  "matches (re2js), few steps": (n) => ["payload.matches('(a*)*[^a]')", "a".repeat(n)],
  "matches (re2js), a 40-step program": (n) => ["payload.matches('^[a-f0-9]{40}$')", "a".repeat(n)],
  contains: (n) => ["payload.contains('aab')", "a".repeat(n)],
  "deep equality": (n) => ["payload.a == payload.b", { a: range(n), b: range(n) }],
  "x in list, per item": (n) => ["payload.map(x, x in payload)", range(n)],
  "time zone calendar fields": (n) => [
    "payload.map(x, timestamp('2024-05-01T10:00:00Z').getHours('Europe/Paris'))",
    range(n),
  ],
  "json of bytes": (n) => ["bytes(payload).json().size()", JSON.stringify(range(n))],
};

function largest(make: (n: number) => [string, unknown]): number {
  const fits = (n: number) => {
    const [source, payload] = make(n);
    return cel.cost(source, { payload: toCel(payload) }) <= CEL_COST_LIMIT;
  };
  let lo = 1;
  let hi = 2;
  while (fits(hi) && hi < 1e8) hi *= 2;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

const rows: string[] = [];
let worst = 0;
for (const [name, make] of Object.entries(FAMILIES)) {
  const n = largest(make);
  const [source, payload] = make(n);
  const context = { payload: toCel(payload) };
  const cost = cel.cost(source, context);
  let slowest = 0;
  for (let i = 0; i < 4; i++) {
    const start = performance.now();
    cel.evaluate(source, context, new CelBudget());
    // The first run warms the code up; the server's are warm.
    if (i > 0) slowest = Math.max(slowest, performance.now() - start);
  }
  worst = Math.max(worst, slowest);
  rows.push(
    `| ${name} | ${n.toLocaleString("en-US")} | ${Math.round(cost).toLocaleString("en-US")} | ${slowest.toFixed(1)} |`,
  );
}
console.log(
  `CEL at its cost limit (${CEL_COST_LIMIT.toLocaleString("en-US")}): the largest input each kind of work may have, and its evaluation's slowest time\n`,
);
console.log("| work | largest n | estimate | ms |\n| --- | --- | --- | --- |");
console.log(rows.join("\n"));
console.log(`\nslowest: ${worst.toFixed(1)} ms`);
