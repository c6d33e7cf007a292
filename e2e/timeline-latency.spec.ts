import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";

// Measures, not asserts: how long an agent step takes from being written to the event log to
// appearing in an open run page's waterfall (over 50+ steps; a row carries data-seq of each event it shows), and the run page's first-load JavaScript.
// Figures go to test-results/e2e/timeline-latency.json and the test's output.
const TOKEN = "e2e-org-token-0123456789abcdef";

test("time from an agent step being written to it appearing in the open page", async ({
  page,
  request,
}, info) => {
  await signIn(page);
  await page.addInitScript(() => {
    const w = window as unknown as { __arrivals: Record<string, number> };
    w.__arrivals = {};
    new MutationObserver((mutations) => {
      for (const m of mutations) {
        for (const node of m.addedNodes) {
          if (
            node instanceof HTMLElement &&
            node.dataset.seq &&
            !(node.dataset.seq in w.__arrivals)
          )
            w.__arrivals[node.dataset.seq] = Date.now();
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
  const latencies: number[] = [];
  let firstLoadJs = 0;
  for (let run = 0; latencies.length < 50; run++) {
    const res = await request.post("/api/crews/three-step/kickoff", {
      headers: { authorization: `Bearer ${TOKEN}` },
      data: { inputs: { job: `measure ${run}` } },
    });
    const id = (await res.json()).kickoff_id as string;
    await page.goto(`/crews/three-step/runs/${id}`);
    if (run === 0) {
      firstLoadJs = await page.evaluate(() =>
        performance
          .getEntriesByType("resource")
          .filter((e) => e.name.endsWith(".js"))
          .reduce((n, e) => n + (e as PerformanceResourceTiming).encodedBodySize, 0),
      );
    }
    await expect(page.getByTestId("run-status")).toHaveText("Completed", { timeout: 60_000 });
    const arrivals = await page.evaluate(
      () => (window as unknown as { __arrivals: Record<string, number> }).__arrivals,
    );
    const { events } = await (
      await request.get(`/api/crews/three-step/executions/${id}/events`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      })
    ).json();
    const pageOpenedAt = Math.min(...Object.values(arrivals));
    for (const e of events as { seq: number; type: string; created_at: string }[]) {
      const at = arrivals[String(e.seq)];
      // Only steps written while the page was already open measure live delivery.
      if (
        at &&
        ["thought", "tool_call", "tool_result", "answer"].includes(e.type) &&
        Date.parse(e.created_at) > pageOpenedAt
      ) {
        latencies.push(at - Date.parse(e.created_at));
      }
    }
  }
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  const figures = {
    steps: latencies.length,
    p50_ms: pct(50),
    p95_ms: pct(95),
    max_ms: latencies.at(-1),
    run_page_first_load_js_bytes: firstLoadJs,
  };
  console.log(`timeline: ${JSON.stringify(figures)}`);
  fs.writeFileSync(info.outputPath("timeline-latency.json"), JSON.stringify(figures, null, 2));
  expect(latencies.length).toBeGreaterThanOrEqual(50);
});
