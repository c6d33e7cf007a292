// First-load JavaScript per dashboard route, as a browser downloads it: each route opened in a
// fresh Chromium context (empty cache), summing the compressed bytes of every script response.
// Next 16's build no longer prints per-route sizes, so this reads what actually crosses the wire.
// "first load" = the scripts the page's HTML names (what Next's build used to print: needed
// before the page is interactive); "by idle" adds the chunks loaded on demand afterwards (the
// API schemas on the first request, Markdown, dialogs) until the network is idle.
// Target: ≤ 180 kB gzip for the run page. Appends to bench/RESULTS.md.
import { chromium } from "@playwright/test";
import { appendResults, machine, run, stamp, startCrewdeck } from "./common.mjs";

const ADMIN = { email: "bench@example.com", password: "bench password 123" };

run(async () => {
  const app = await startCrewdeck({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  const crew = "research-brief";
  const { inputs } = await (
    await fetch(`${app.base(crew)}/inputs`, { headers: app.headers })
  ).json();
  const kickoff = await fetch(`${app.base(crew)}/kickoff`, {
    method: "POST",
    headers: app.headers,
    body: JSON.stringify({ inputs: Object.fromEntries(inputs.map((n) => [n, "bench"])) }),
  });
  const { kickoff_id: runId } = await kickoff.json();

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu"],
  });
  try {
    const signIn = await browser.newContext();
    const page = await signIn.newPage();
    await page.goto(`${app.url}/sign-in`);
    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((u) => !u.pathname.startsWith("/sign-in"));
    const storageState = await signIn.storageState();
    await signIn.close();

    const routes = {
      "/": "Overview",
      "/runs": "Runs",
      [`/crews/${crew}/runs/${runId}`]: "Run page",
      "/inbox": "Inbox",
      "/crews": "Crews",
      [`/crews/${crew}`]: "Crew page",
      "/settings": "Settings",
      "/tracker": "Issues",
      "/sign-in": "Sign-in (signed out)",
    };
    const rows = [];
    for (const [route, name] of Object.entries(routes)) {
      const ctx = await browser.newContext(route === "/sign-in" ? {} : { storageState });
      const p = await ctx.newPage();
      const scripts = [];
      p.on("response", (r) => {
        if (r.request().resourceType() === "script") scripts.push(r);
      });
      const doc = await p.goto(`${app.url}${route}`, { waitUntil: "networkidle" });
      const html = (await doc?.text()) ?? "";
      const named = new Set(
        [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => new URL(m[1], app.url).href),
      );
      let bytes = 0;
      let idle = 0;
      for (const r of scripts) {
        const size = (await r.request().sizes()).responseBodySize;
        idle += size;
        if (named.has(r.url())) bytes += size;
      }
      rows.push({
        route: name,
        path: route,
        scripts: named.size,
        kB: bytes / 1024,
        "by idle kB": (idle / 1024).toFixed(1),
      });
      await ctx.close();
    }
    console.table(rows.map((r) => ({ ...r, kB: r.kB.toFixed(1) })));
    const list = rows
      .map((r) => `${r.route} ${r.kB.toFixed(0)} (${Number(r["by idle kB"]).toFixed(0)} by idle)`)
      .join(" · ");
    appendResults([
      `| ${stamp()} | ${machine()} | first-load JS per route (scripts the HTML names), kB gzip over the wire (Chromium, empty cache) | – | – | ${list} | | run page target ≤ 180 |`,
    ]);
  } finally {
    await browser.close();
  }
});
