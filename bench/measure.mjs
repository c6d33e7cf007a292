// Load and measurements shared by the benchmark scripts: autocannon runs, kickoffs in bulk, a
// process's memory and CPU, percentiles, and a raw reader of a run's live timeline.
import fs from "node:fs";
import http from "node:http";
import autocannon from "autocannon";

/**
 * autocannon with the options given; rejects on a socket error or on any status outside
 * `accept` (by default: any non-2xx).
 */
export function load(options, { accept } = {}) {
  return new Promise((resolve, reject) => {
    autocannon(options, (err, r) => {
      if (err) return reject(err);
      const unexpected = accept
        ? Object.entries(r.statusCodeStats ?? {})
            .filter(([code]) => !accept.includes(Number(code)))
            .reduce((n, [, v]) => n + v.count, 0)
        : r.non2xx;
      if (unexpected || r.errors)
        return reject(
          new Error(`${options.url}: ${unexpected} unexpected answers, ${r.errors} errors`),
        );
      resolve({
        rps: Math.round(r.requests.average),
        p50: r.latency.p50,
        p99: r.latency.p99,
        total: r.requests.total,
      });
    });
  });
}

/** Kickoffs of `crew` with `inputs(i)`, `parallel` at a time; returns the kickoff ids in order. */
export async function kickoffMany(server, crew, n, inputs, parallel = 16) {
  const ids = new Array(n);
  let next = 0;
  const one = async () => {
    while (next < n) {
      const i = next++;
      const res = await fetch(`${server.base(crew)}/kickoff`, {
        method: "POST",
        headers: server.headers,
        body: JSON.stringify({ inputs: inputs(i) }),
      });
      if (!res.ok) throw new Error(`kickoff ${i}: ${res.status} ${await res.text()}`);
      ids[i] = (await res.json()).kickoff_id;
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, n) }, one));
  return ids;
}

/** VmRSS of a process in MB, from /proc. */
export function rssMb(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]);
  return kb / 1024;
}

/** CPU time (user + system) a process has used so far, in ms, from /proc. */
export function cpuMs(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in 1/100 s
}

/** The value at percentile `p` of an ascending array. */
export function percentile(sorted, p) {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export const median = (values) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

/**
 * A raw Server-Sent Events reader of a live timeline: `onReady()` once subscribed (the `retry:`
 * line), `onEvent(event, receivedAt)` for each execution event, `onEnd(true)` at the stream's
 * `end` event or `onEnd(false)` if it breaks off. Returns a function that closes it.
 */
export function readTimeline(url, authorization, { onReady = () => {}, onEvent, onEnd }) {
  const target = new URL(url);
  const req = http.get(
    {
      host: target.hostname,
      port: target.port,
      path: target.pathname,
      headers: { authorization, accept: "text/event-stream" },
      agent: false,
    },
    (res) => {
      if (res.statusCode !== 200) {
        req.destroy();
        onEnd(false, `HTTP ${res.statusCode}`);
        return;
      }
      res.setEncoding("utf8");
      let buffer = "";
      res.on("data", (chunk) => {
        const receivedAt = Date.now();
        buffer += chunk;
        let end = buffer.indexOf("\n\n");
        while (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf("\n\n");
          let data;
          let event = "message";
          for (const line of block.split("\n")) {
            if (line.startsWith("data: ")) data = line.slice(6);
            else if (line.startsWith("event: ")) event = line.slice(7);
            else if (line.startsWith("retry: ")) onReady();
          }
          if (event === "execution" && data) onEvent(JSON.parse(data), receivedAt);
          else if (event === "end") {
            req.destroy();
            onEnd(true);
          }
        }
      });
      res.on("end", () => onEnd(false));
    },
  );
  req.on("error", () => onEnd(false));
  return () => req.destroy();
}
