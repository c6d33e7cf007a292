// What the browser tests' actions cost the browser, in CPU seconds of all its processes (read from
// /proc), for each Debian Chromium build installed: the desktop `chromium` and
// `chromium-headless-shell` (the same Blink without the desktop shell; playwright.config.ts uses
// it when present). A cold sign-in opens a fresh context, as each browser test does.
// Appends a row per build to bench/RESULTS.md.
import fs from "node:fs";
import { chromium } from "@playwright/test";
import { appendResults, machine, ROOT, run, stamp, startCrewdeck } from "./common.mjs";

const ADMIN = { email: "bench@example.com", password: "bench password 123" };
const BUILDS = ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].filter((p) =>
  fs.existsSync(p),
);
const TICKS_PER_S = 100;

// CPU seconds so far of the browser: every process below this one but the server, with the
// children each has reaped (a closed context's renderer).
function browserCpu(serverPid) {
  const procs = new Map();
  for (const pid of fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      procs.set(Number(pid), { parent: Number(f[1]), ticks: +f[11] + +f[12] + +f[13] + +f[14] });
    } catch {
      // Ended meanwhile.
    }
  }
  const below = (pid) => {
    for (let p = procs.get(pid)?.parent; p && p !== serverPid; p = procs.get(p)?.parent)
      if (p === process.pid) return true;
    return false;
  };
  let ticks = 0;
  for (const [pid, p] of procs) if (pid !== serverPid && below(pid)) ticks += p.ticks;
  return ticks / TICKS_PER_S;
}

async function measure(exe, app) {
  const url = app.url;
  const browser = await chromium.launch({ executablePath: exe, args: ["--no-sandbox"] });
  const figures = {};
  const each = async (name, times, action) => {
    const before = browserCpu(app.pid);
    for (let i = 0; i < times; i++) await action(i);
    figures[name] = (browserCpu(app.pid) - before) / times;
  };
  try {
    let page;
    await each("cold sign-in", 3, async () => {
      await page?.context().close();
      page = await (await browser.newContext({ reducedMotion: "reduce" })).newPage();
      await page.goto(`${url}/sign-in`);
      await page.getByLabel("Email").fill(ADMIN.email);
      await page.getByLabel("Password").fill(ADMIN.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("heading", { name: "Overview" }).waitFor();
    });
    await each("navigation", 6, (i) => page.goto(`${url}${i % 2 ? "/runs" : "/"}`));
    await page.evaluate(fs.readFileSync(`${ROOT}/node_modules/axe-core/axe.min.js`, "utf8"));
    await each("axe", 3, () =>
      page.evaluate(() => window.axe.run({ resultTypes: ["violations"] })),
    );
    await each("full-page screenshot", 3, () => page.screenshot({ fullPage: true }));
  } finally {
    await browser.close();
  }
  return figures;
}

run(async () => {
  const app = await startCrewdeck({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  const rows = [];
  for (const exe of BUILDS) {
    const figures = await measure(exe, app);
    console.log(exe, figures);
    const list = Object.entries(figures)
      .map(([name, cpu]) => `${name} ${cpu.toFixed(2)}`)
      .join(" · ");
    rows.push(
      `| ${stamp()} | ${machine()} | browser CPU-s per test action, ${exe.split("/").pop()} | – | – | ${list} | | |`,
    );
  }
  appendResults(rows);
});
