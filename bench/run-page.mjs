// The run page with a 5,000-step run, in Chromium: time to first paint of the waterfall, time
// until every step is in it, and long tasks (> 50 ms) while the expanded waterfall is scrolled
// from top to bottom. Targets: < 1 s to first paint, no long task during the scroll.
//
// The run: one real run of the example crew on the offline model (its execution row, tasks and
// step payloads as the engine wrote them), whose event log is then rewritten, with the server
// stopped, to STEPS waterfall rows: per task a task_started, thought → tool_call/tool_result
// cycles (a call and its result are one row) 150 ms apart, an answer and task_completed, then
// execution_completed; the row's and tasks' times are moved to match. The page then reads it
// through the same /status and SSE stream as any run. Prints its figures (does not write
// RESULTS.md). STEPS=5000 SCROLL_STEPS=120 node bench/run-page.mjs
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { chromium } from "@playwright/test";
import { machine, run, sleep, startCrewdeck, stop, tempDir } from "./common.mjs";

const STEPS = Number(process.env.STEPS ?? 5_000);
const SCROLL_STEPS = Number(process.env.SCROLL_STEPS ?? 120);
const CREW = "research-brief";
const ADMIN = { email: "bench@example.com", password: "bench password 123" };
const GAP_MS = 150;

async function realRun(dataDir) {
  const app = await startCrewdeck({ DATA_DIR: dataDir });
  const { inputs } = await (
    await fetch(`${app.base(CREW)}/inputs`, { headers: app.headers })
  ).json();
  const res = await fetch(`${app.base(CREW)}/kickoff`, {
    method: "POST",
    headers: app.headers,
    body: JSON.stringify({ inputs: Object.fromEntries(inputs.map((n) => [n, "bench"])) }),
  });
  const { kickoff_id: id } = await res.json();
  for (let i = 0; ; i++) {
    const s = await (
      await fetch(`${app.base(CREW)}/status/${id}`, { headers: app.headers })
    ).json();
    if (s.status === "completed") break;
    if (s.status === "error" || i > 1000) throw new Error(`template run: ${s.status} ${s.error}`);
    await sleep(20);
  }
  await stop(app);
  return id;
}

/** Rewrites the run's event log to `rows` waterfall rows; answers the number of step events. */
async function inflate(dataDir, id, rows) {
  const db = await PGlite.create(path.join(dataDir, "pgdata"));
  try {
    const q = async (sql, p) => (await db.query(sql, p)).rows;
    const [exec] = await q("SELECT tasks, created_at FROM executions WHERE id = $1", [id]);
    const events = await q(
      "SELECT type, task_id, attempt, data FROM execution_events WHERE execution_id = $1 ORDER BY seq",
      [id],
    );
    const sample = (type, task) =>
      events.find((e) => e.type === type && e.task_id === task)?.data ??
      events.find((e) => e.type === type)?.data ?? { text: "bench" };
    const tasks = exec.tasks;
    const start = new Date(exec.created_at).getTime() + 50;
    let t = start;
    let seq = 0;
    let stepEvents = 0;
    const out = [];
    const push = (type, task_id, data, gap = GAP_MS) => {
      t += gap;
      out.push([id, ++seq, type, task_id, task_id ? 1 : null, data, new Date(t).toISOString()]);
    };
    push("execution_queued", null, sample("execution_queued", null), 0);
    push("execution_started", null, {}, 10);
    const perTask = Math.floor(rows / tasks.length);
    tasks.forEach((task, i) => {
      const n = i === tasks.length - 1 ? rows - perTask * (tasks.length - 1) : perTask;
      push("task_started", task.task_id, { agent: task.agent, name: task.name }, 10);
      task.started_at = new Date(t).toISOString();
      const tool = sample("tool_call", task.task_id);
      for (let r = 0; r < n - 1; r++) {
        if (r % 2 === 0) push("thought", task.task_id, sample("thought", task.task_id));
        else {
          const call_id = `bench-${seq}`;
          push("tool_call", task.task_id, { ...tool, call_id });
          push(
            "tool_result",
            task.task_id,
            { ...sample("tool_result", task.task_id), call_id },
            20,
          );
          stepEvents++;
        }
        stepEvents++;
      }
      push("answer", task.task_id, sample("answer", task.task_id));
      stepEvents++;
      push("task_completed", task.task_id, sample("task_completed", task.task_id), 5);
      task.finished_at = new Date(t).toISOString();
      task.execution_time = (Date.parse(task.finished_at) - Date.parse(task.started_at)) / 1000;
    });
    push("execution_completed", null, sample("execution_completed", null), 5);
    await db.transaction(async (tx) => {
      await tx.query("DELETE FROM execution_events WHERE execution_id = $1", [id]);
      for (let i = 0; i < out.length; i += 500) {
        const chunk = out.slice(i, i + 500);
        const values = chunk
          .map((_, j) => `(${[1, 2, 3, 4, 5, 6, 7].map((k) => `$${j * 7 + k}`).join(", ")})`)
          .join(", ");
        await tx.query(
          `INSERT INTO execution_events (execution_id, seq, type, task_id, attempt, data, created_at) VALUES ${values}`,
          chunk.flat(),
        );
      }
      await tx.query(
        "UPDATE executions SET tasks = $2, started_at = $3, finished_at = $4, updated_at = $4 WHERE id = $1",
        [id, JSON.stringify(tasks), new Date(start).toISOString(), new Date(t).toISOString()],
      );
    });
    return { events: out.length, stepEvents };
  } finally {
    await db.close();
  }
}

run(async () => {
  const dataDir = tempDir("crewdeck-bench-run-page-");
  const id = await realRun(dataDir);
  const inflated = await inflate(dataDir, id, STEPS);
  const app = await startCrewdeck({
    DATA_DIR: dataDir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu"],
  });
  try {
    const signIn = await browser.newContext();
    const page0 = await signIn.newPage();
    await page0.goto(`${app.url}/sign-in`);
    await page0.getByLabel("Email").fill(ADMIN.email);
    await page0.getByLabel("Password").fill(ADMIN.password);
    await page0.getByRole("button", { name: "Sign in" }).click();
    await page0.waitForURL((u) => !u.pathname.startsWith("/sign-in"));
    const storageState = await signIn.storageState();
    await signIn.close();

    const runs = [];
    for (let round = 0; round < Number(process.env.ROUNDS ?? 3); round++) {
      const ctx = await browser.newContext({
        storageState,
        viewport: { width: 1280, height: 900 },
      });
      const page = await ctx.newPage();
      let jsBytes = 0;
      const scripts = [];
      page.on("response", (r) => {
        if (r.request().resourceType() === "script") scripts.push(r);
      });
      // In the page from its first byte: when the waterfall's first row, and every step, is
      // painted (the frame after the DOM has it), and every long task.
      await page.addInitScript((total) => {
        const w = window;
        w.__bench = { longTasks: [], firstRow: null, allSteps: null };
        new PerformanceObserver((list) => {
          for (const e of list.getEntries())
            w.__bench.longTasks.push({ start: e.startTime, duration: e.duration });
        }).observe({ type: "longtask", buffered: true });
        const painted = (key) =>
          requestAnimationFrame(() =>
            setTimeout(() => {
              w.__bench[key] ??= performance.now();
            }, 0),
          );
        new MutationObserver(() => {
          if (
            w.__bench.firstRow === null &&
            document.querySelector('[role="tree"] [role="treeitem"]')
          ) {
            w.__bench.firstRow = -1;
            painted("firstRowPaint");
          }
          const count = document.querySelector("#trace-title + p")?.textContent ?? "";
          if (w.__bench.allSteps === null && count.replace(/\D/g, "").endsWith(String(total))) {
            w.__bench.allSteps = -1;
            painted("allStepsPaint");
          }
        }).observe(document, { childList: true, subtree: true, characterData: true });
      }, STEPS);
      await page.goto(`${app.url}/crews/${CREW}/runs/${id}`);
      await page.waitForFunction(() => window.__bench.allStepsPaint !== undefined, null, {
        timeout: 120_000,
      });
      for (const r of scripts) jsBytes += (await r.request().sizes()).responseBodySize;
      const load = await page.evaluate(() => ({
        firstRowPaint: window.__bench.firstRowPaint,
        allStepsPaint: window.__bench.allStepsPaint,
        longTasks: window.__bench.longTasks.length,
        longestMs: Math.max(0, ...window.__bench.longTasks.map((t) => t.duration)),
      }));

      // Every task open, then the list scrolled top to bottom in SCROLL_STEPS frames.
      await page.getByRole("button", { name: "Expand all" }).click();
      await page.waitForTimeout(500);
      const scroll = await page.evaluate(async (steps) => {
        const el = document.querySelector('[data-testid="waterfall"]');
        const from = performance.now();
        const frames = [];
        const max = el.scrollHeight - el.clientHeight;
        for (let i = 1; i <= steps; i++) {
          el.scrollTop = (max * i) / steps;
          const t0 = performance.now();
          await new Promise((r) => requestAnimationFrame(() => r()));
          frames.push(performance.now() - t0);
        }
        await new Promise((r) => setTimeout(r, 200)); // let the observer report the last ones
        const during = window.__bench.longTasks.filter((t) => t.start >= from);
        frames.sort((a, b) => a - b);
        return {
          scrolledPx: max,
          rowsInDom: el.querySelectorAll('[role="treeitem"]').length,
          longTasks: during.length,
          longestMs: Math.max(0, ...during.map((t) => t.duration)),
          frameP50Ms: frames[Math.floor(frames.length / 2)],
          frameP95Ms: frames[Math.floor(frames.length * 0.95)],
          frameMaxMs: frames.at(-1),
        };
      }, SCROLL_STEPS);
      runs.push({
        round,
        jsKB:
          Math.round(jsBytes / 102.4) / 10 /* every script fetched by then, lazy chunks included */,
        load,
        scroll,
      });
      await ctx.close();
    }
    const fmt = (n) => (typeof n === "number" ? Math.round(n) : n);
    console.log(
      JSON.stringify(
        { machine: machine(), rows: STEPS, ...inflated, scrollSteps: SCROLL_STEPS, runs },
        null,
        2,
      ),
    );
    for (const r of runs)
      console.log(
        `round ${r.round}: first row painted ${fmt(r.load.firstRowPaint)} ms, all ${STEPS} steps painted ${fmt(r.load.allStepsPaint)} ms (long tasks while loading: ${r.load.longTasks}, longest ${fmt(r.load.longestMs)} ms); scroll of ${r.scroll.scrolledPx} px in ${SCROLL_STEPS} frames: ${r.scroll.longTasks} long tasks (longest ${fmt(r.scroll.longestMs)} ms), frame p50 ${fmt(r.scroll.frameP50Ms)} / p95 ${fmt(r.scroll.frameP95Ms)} / max ${fmt(r.scroll.frameMaxMs)} ms, ${r.scroll.rowsInDom} rows in the DOM; JS fetched (lazy chunks included) ${r.jsKB} kB`,
      );
  } finally {
    await browser.close();
    await stop(app);
  }
});
