// Reads Prometheus' text exposition format (0.0.4) into samples, checking its structure as it
// goes: every sample belongs to a metric announced by # HELP and # TYPE before it.

type Sample = { name: string; labels: Record<string, string>; value: number };
export type Exposition = { types: Map<string, string>; samples: Sample[] };

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)(\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?\s*/y;

export function parseExposition(text: string): Exposition {
  const types = new Map<string, string>();
  const helped = new Set<string>();
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (meta) {
      if (meta[1] === "TYPE") types.set(meta[2] as string, meta[3] as string);
      else helped.add(meta[2] as string);
      continue;
    }
    if (line.startsWith("#")) continue;
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const name = m[1] as string;
    const family = [...types.keys()].find(
      (f) => name === f || name === `${f}_bucket` || name === `${f}_sum` || name === `${f}_count`,
    );
    if (!family || !helped.has(family)) throw new Error(`sample of an undeclared metric: ${line}`);
    const labels: Record<string, string> = {};
    const body = m[3] ?? "";
    LABEL.lastIndex = 0;
    while (LABEL.lastIndex < body.length) {
      const l = LABEL.exec(body);
      if (!l) throw new Error(`bad labels: ${line}`);
      labels[l[1] as string] = (l[2] as string).replace(/\\n/g, "\n").replace(/\\(.)/g, "$1");
    }
    const raw = m[4] as string;
    const value = raw === "+Inf" ? Infinity : raw === "-Inf" ? -Infinity : Number(raw);
    if (Number.isNaN(value) && raw !== "NaN") throw new Error(`bad value: ${line}`);
    samples.push({ name, labels, value });
  }
  return { types, samples };
}

/** The value of the one sample named so whose labels include `labels` (0 when none: not yet). */
export function sampleValue(e: Exposition, name: string, labels: Record<string, string> = {}) {
  const found = e.samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  return found.reduce((sum, s) => sum + s.value, 0);
}
