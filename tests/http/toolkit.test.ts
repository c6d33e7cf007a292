import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { call, crewClient, type Json } from "../support/api";
import {
  dbMode,
  FIXTURE_CREWS,
  freshPostgresDatabase,
  type Proc,
  startServer,
  TEST_CREW_TOKEN,
  tempDir,
} from "../support/harness";
import { startToolkitFakes } from "../support/toolkit-fakes";

// The built-in toolkit against loopback servers, in real `next start`s with the offline model
// (which calls each tool once, its url or path taken from the task). Loopback is private: the
// servers started here allow 127.0.0.1 only (TOOL_ALLOWED_NETWORKS), the shared one nothing.
const fakes = await startToolkitFakes();
const procs: Proc[] = [];
afterAll(async () => {
  await Promise.all(procs.map((p) => p.kill()));
  await fakes.close();
});

const KEYS = {
  serper: "serper-key-0123456789",
  tavily: "tvly-key-0123456789",
  brave: "brave-key-0123456789",
  searxng: "searx-key-0123456789",
};

async function serverWith(provider: keyof typeof KEYS, extra: Record<string, string> = {}) {
  const dataDir = tempDir("toolkit");
  const db = dbMode() === "postgres" ? await freshPostgresDatabase() : undefined;
  const server = await startServer({
    CREWS_DIR: FIXTURE_CREWS,
    CREW_TOKEN: TEST_CREW_TOKEN,
    DATA_DIR: dataDir,
    OFFLINE_MODEL_DELAY_MS: "0",
    TOOL_ALLOWED_NETWORKS: "127.0.0.1/32",
    SEARCH_PROVIDER: provider,
    SEARCH_API_KEY: KEYS[provider],
    SEARCH_URL: `${fakes.origin}/${provider}`,
    ...(db ? { DATABASE_URL: db } : {}),
    ...extra,
  });
  procs.push(server);
  return { ...server, dataDir };
}

/** Runs a fixture crew to its end; its tool results by tool name, and the whole event log. */
async function runTools(url: string, crew: string, inputs: Record<string, string>) {
  const client = crewClient(url, crew, TEST_CREW_TOKEN);
  const id = await client.start(inputs);
  const done = await client.waitFor(id, (s) => s.status === "completed" || s.status === "error");
  const events = (await client.events(id)).json.events as Json[];
  const results = Object.fromEntries(
    events.filter((e) => e.type === "tool_result").map((e) => [e.data.tool, e.data.result]),
  );
  return { id, done, events, results };
}

describe("toolkit with 127.0.0.1 allowed", () => {
  let s: Awaited<ReturnType<typeof serverWith>>;
  beforeAll(async () => {
    s = await serverWith("serper", { SCRAPE_MAX_BYTES: "4096" });
  });

  it("scrape_website follows a redirect and reads the page as text", async () => {
    const { done, results } = await runTools(s.url, "toolkit-scrape", {
      url: `${fakes.origin}/page`,
    });
    expect(done.status).toBe("completed");
    const page = results.scrape_website;
    expect(page).toMatchObject({
      url: `${fakes.origin}/article`,
      status: 200,
      title: "Tide tables",
    });
    expect(page.text).toBe(
      `# High tide at noon\n\nThe harbour floods twice a day & ships wait.\n\nSee the ports (${fakes.origin}/ports).`,
    );
    expect(JSON.stringify(page)).not.toMatch(/script text|footer text|Home/);
  });

  it.each([
    ["/notes.txt", { status: 200, text: "plain notes\nsecond line" }],
    ["/missing", { status: 404, error: "the site answered HTTP 404" }],
    [
      "/report.pdf",
      { error: expect.stringMatching(/^the page is application\/pdf, not HTML or text/) },
    ],
    ["/big", { error: "the page is larger than 4096 bytes (SCRAPE_MAX_BYTES)" }],
    ["/big-stream", { truncated: true, text: "y".repeat(3000) + "z".repeat(1096) }],
    ["/loop", { error: "too many redirects (more than 5)" }],
  ])("scrape_website %s: the site's answer, errors as the tool's result", async (p, expected) => {
    const { done, results } = await runTools(s.url, "toolkit-scrape", { url: fakes.origin + p });
    expect(done.status).toBe("completed");
    expect(results.scrape_website).toMatchObject(expected);
  });

  it("refuses addresses outside TOOL_ALLOWED_NETWORKS, also when a redirect leads there", async () => {
    const port = fakes.port;
    for (const url of [
      `http://127.0.0.2:${port}/article`,
      `${fakes.origin}/to-private`,
      "http://169.254.169.254/latest/meta-data/",
      `http://[::1]:${port}/article`,
    ]) {
      const { results } = await runTools(s.url, "toolkit-scrape", { url });
      expect(results.scrape_website.error, url).toMatch(
        /^refused: .* address \(list its network in TOOL_ALLOWED_NETWORKS to allow it\)$/,
      );
    }
    const before = fakes.seen.filter((r) => r.path === "/article").length;
    await runTools(s.url, "toolkit-scrape", { url: `file:///etc/passwd` });
    const { results } = await runTools(s.url, "toolkit-scrape", { url: "ftp://127.0.0.1/x" });
    expect(results.scrape_website.error).toBe("only http and https URLs are allowed, not ftp:");
    // The redirect to 127.0.0.2 never reached the page.
    expect(fakes.seen.filter((r) => r.path === "/article").length).toBe(before);
  });

  it("web_search speaks Serper's format, and its key never shows", async () => {
    const { done, results, events } = await runTools(s.url, "toolkit-search", {
      query: "tide tables",
    });
    expect(done.status).toBe("completed");
    const req = fakes.seen.findLast((r) => r.path === "/serper/search");
    expect(req?.method).toBe("POST");
    expect(req?.headers["x-api-key"]).toBe(KEYS.serper);
    expect(JSON.parse(req?.body ?? "")).toEqual({ q: "tide tables", num: 5 });
    expect(results.web_search).toEqual({
      query: "tide tables",
      results: [
        { title: "Tides", url: "https://tides.example/", snippet: "Tide tables [SEARCH_API_KEY]" },
        { title: "Moon", url: "https://moon.example/", snippet: "The moon pulls" },
      ],
    });
    expect(JSON.stringify(events)).not.toContain(KEYS.serper);
  });

  it("write_file, read_file and list_directory share the run's workspace; the file downloads", async () => {
    const { id, done, results } = await runTools(s.url, "toolkit-files", {
      file: "plan.md",
      topic: "tides",
    });
    expect(done.status).toBe("completed");
    const content = "Write `plan.md` with notes on tides";
    expect(results.write_file).toMatchObject({
      path: "plan.md",
      written: true,
      bytes: content.length,
    });
    expect(results.read_file).toEqual({ path: "plan.md", bytes: content.length, content });
    expect(results.list_directory).toEqual({
      directory: ".",
      files: [{ path: "plan.md", bytes: content.length }],
    });
    expect(fs.readFileSync(path.join(s.dataDir, "workspaces", id, "plan.md"), "utf8")).toBe(
      content,
    );
    const base = `/api/crews/toolkit-files/executions/${id}/artifacts`;
    const list = await call(s.url, "GET", base, { token: TEST_CREW_TOKEN });
    expect(list.status, list.text).toBe(200);
    expect(JSON.stringify(list.json)).toContain(`${base}/workspace/plan.md`);
    const file = await call(s.url, "GET", `${base}/workspace/plan.md`, { token: TEST_CREW_TOKEN });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toContain('filename="plan.md"');
    expect(file.text).toBe(content);
  });

  it.each([
    ["../x.md", /leaves the workspace/],
    ["/etc/passwd", /absolute path/],
    ["notes/../../x.md", /leaves the workspace/],
  ])("refuses the path %s for reading and writing", async (file, why) => {
    const { done, results } = await runTools(s.url, "toolkit-files", { file, topic: "tides" });
    expect(done.status).toBe("completed");
    expect(results.write_file.error).toMatch(why);
    expect(results.read_file.error).toMatch(why);
  });

  it("refuses a link planted in the workspace that points outside it", async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-outside-"));
    fs.writeFileSync(path.join(outside, "secret.txt"), "top secret");
    const client = crewClient(s.url, "toolkit-links", TEST_CREW_TOKEN);
    const id = await client.start({ topic: "tides", file: "link/secret.txt" });
    await client.waitFor(id, (x) => x.status === "pending_human_input");
    // While the run waits for review, someone with disk access plants a link.
    const root = path.join(s.dataDir, "workspaces", id);
    fs.mkdirSync(root, { recursive: true });
    fs.symlinkSync(outside, path.join(root, "link"));
    const resumed = await client.resume({
      execution_id: id,
      task_id: "prepare",
      human_feedback: "",
      is_approve: true,
    });
    expect(resumed.status, resumed.text).toBe(200);
    const done = await client.waitFor(id, (x) => x.status === "completed" || x.status === "error");
    expect(done.status).toBe("completed");
    const events = (await client.events(id)).json.events as Json[];
    const result = (tool: string) =>
      events.find((e) => e.type === "tool_result" && e.data.tool === tool)?.data.result;
    expect(result("read_file").error).toBe(
      "'link/secret.txt' leads outside the workspace (a link points elsewhere)",
    );
    expect(result("write_file").error).toBe(
      "'link/secret.txt' leads outside the workspace (a link points elsewhere)",
    );
    expect(JSON.stringify(events)).not.toContain("top secret");
    expect(fs.readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("top secret");
    fs.rmSync(outside, { recursive: true, force: true });
  });
});

describe("web_search in each provider's format", () => {
  it.each([
    [
      "tavily" as const,
      (r: Json) => {
        expect(r.method).toBe("POST");
        expect(r.headers.authorization).toBe(`Bearer ${KEYS.tavily}`);
        expect(JSON.parse(r.body)).toEqual({ query: "tide tables", max_results: 5 });
      },
      [{ title: "Tides", url: "https://tides.example/", snippet: "Tide tables" }],
    ],
    [
      "brave" as const,
      (r: Json) => {
        expect(r.method).toBe("GET");
        expect(r.headers["x-subscription-token"]).toBe(KEYS.brave);
        expect(r.query).toEqual({ q: "tide tables", count: "5" });
      },
      [{ title: "Tides", url: "https://tides.example/", snippet: "Tide tables" }],
    ],
    [
      "searxng" as const,
      (r: Json) => {
        expect(r.method).toBe("GET");
        expect(r.query).toEqual({ q: "tide tables", format: "json" });
      },
      [{ title: "Tides", url: "https://tides.example/", snippet: "Tide tables" }],
    ],
  ])("%s", async (provider, check, expected) => {
    const s = await serverWith(provider);
    try {
      const { done, results, events } = await runTools(s.url, "toolkit-search", {
        query: "tide tables",
      });
      expect(done.status).toBe("completed");
      const paths = {
        tavily: "/tavily/search",
        brave: "/brave/res/v1/web/search",
        searxng: "/searxng/search",
      };
      const req = fakes.seen.findLast((r) => r.path === paths[provider]);
      expect(req).toBeDefined();
      check(req);
      expect(results.web_search).toEqual({ query: "tide tables", results: expected });
      expect(JSON.stringify(events)).not.toContain(KEYS[provider]);
    } finally {
      await s.kill();
    }
  });
});

describe("toolkit on a server with no allow-list and no search provider", () => {
  const baseUrl = inject("baseUrl");

  it("refuses loopback pages, and web_search says what to set", async () => {
    const scraped = await runTools(baseUrl, "toolkit-scrape", { url: `${fakes.origin}/article` });
    expect(scraped.done.status).toBe("completed");
    expect(scraped.results.scrape_website).toEqual({
      url: `${fakes.origin}/article`,
      error:
        "refused: 127.0.0.1 is a loopback address (list its network in TOOL_ALLOWED_NETWORKS to allow it)",
    });
    const searched = await runTools(baseUrl, "toolkit-search", { query: "tide tables" });
    expect(searched.done.status).toBe("completed");
    expect(searched.results.web_search.error).toMatch(
      /^web search is not configured: set SEARCH_PROVIDER/,
    );
  });
});
