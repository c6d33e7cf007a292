import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { call, crewClient, type Json } from "../support/api";
import {
  dbMode,
  FIXTURE_CREWS,
  freePort,
  freshPostgresDatabase,
  type Proc,
  ROOT,
  startServer,
  TEST_ADMIN,
  TEST_CREW_TOKEN,
  tempDir,
} from "../support/harness";
import { adminHeaders } from "../support/people";

// MCP servers nobody here wrote (@modelcontextprotocol/server-everything and -filesystem, from
// npm), run for real over stdio and Streamable HTTP; the offline model lists their tools and calls
// each once. This file's server has its own environment: the secret, the allowed loopback network,
// the HTTP server's URL. The refused private address runs on the suite's server, which allows none.

const SECRET = "mcp-secret-7f3a9c1e5b2d4086";
const work = tempDir("mcp");
const crashMarker = path.join(work, "crashed");
const procs: Proc[] = [];
let httpServer: ChildProcess | undefined;
let base = "";

async function startHttpEverything(): Promise<string> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js"),
      "streamableHttp",
    ],
    {
      env: { ...process.env, PORT: String(port) },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  httpServer = child;
  await new Promise<void>((resolve, reject) => {
    let out = "";
    const seen = (d: Buffer) => {
      out += d.toString();
      if (/listening on port/i.test(out)) resolve();
    };
    child.stdout?.on("data", seen);
    child.stderr?.on("data", seen);
    child.once("exit", (code) => reject(new Error(`everything server exited (${code}): ${out}`)));
  });
  return `http://127.0.0.1:${port}/mcp`;
}

beforeAll(async () => {
  fs.writeFileSync(path.join(work, "notes.txt"), "The notes say: MCP files work.\n");
  const url = await startHttpEverything();
  const server = await startServer({
    CREWS_DIR: FIXTURE_CREWS,
    CREW_TOKEN: TEST_CREW_TOKEN,
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    DATA_DIR: tempDir("mcp-data"),
    OFFLINE_MODEL_DELAY_MS: "0",
    WORKER_POLL_MS: "100",
    TOOL_ALLOWED_NETWORKS: "127.0.0.0/8",
    MCP_TEST_SECRET: SECRET,
    MCP_TEST_FS_DIR: work,
    MCP_TEST_HTTP_URL: url,
    MCP_TEST_CRASH_MARKER: crashMarker,
    ...(dbMode() === "postgres" ? { DATABASE_URL: (await freshPostgresDatabase()) as string } : {}),
  });
  procs.push(server);
  base = server.url;
}, 120_000);

afterAll(async () => {
  await Promise.all(procs.map((p) => p.kill()));
  httpServer?.kill();
  fs.rmSync(work, { recursive: true, force: true });
});

async function run(baseUrl: string, crew: string) {
  const client = crewClient(baseUrl, crew, TEST_CREW_TOKEN);
  const id = await client.start({});
  const status = await client.waitFor(id, (s) => ["completed", "error"].includes(s.status));
  const events = (await client.events(id)).json.events as Json[];
  return { id, status, events, text: JSON.stringify(events) };
}

const calls = (events: Json[], tool: string) => ({
  call: events.find((e) => e.type === "tool_call" && e.data.tool === tool),
  result: events.find((e) => e.type === "tool_result" && e.data.tool === tool),
});

describe("MCP servers", () => {
  it("stdio: the everything server's tools are listed and called, results recorded", async () => {
    const { status, events } = await run(base, "mcp-everything");
    expect(status.status, JSON.stringify(status)).toBe("completed");
    const echo = calls(events, "everything_echo");
    expect(echo.call?.data.tool_input).toEqual({ message: expect.any(String) });
    expect(echo.result?.data.result).toBe(`Echo: ${echo.call?.data.tool_input.message}`);
    const sum = calls(events, "everything_get-sum");
    expect(sum.call?.data.tool_input).toEqual({ a: 1, b: 1 });
    expect(String(sum.result?.data.result)).toContain("2");
    // An image is described, not carried as base64.
    const image = calls(events, "everything_get-tiny-image");
    expect(JSON.stringify(image.result?.data.result)).toMatch(/\[image: image\/png, \d+ bytes/);
  });

  it("stdio: the filesystem server reads a file in the directory it is allowed", async () => {
    const { status, events } = await run(base, "mcp-filesystem");
    expect(status.status, JSON.stringify(status)).toBe("completed");
    // The offline model takes the path from the task: the file name in backticks.
    const read = calls(events, "files_read_text_file");
    expect(read.call?.data.tool_input).toEqual({ path: "notes.txt" });
    // Text and the server's structured content beside it.
    expect(JSON.stringify(read.result?.data.result)).toContain("The notes say: MCP files work.");
  });

  it("Streamable HTTP on loopback, allowed by TOOL_ALLOWED_NETWORKS; the header's secret never logged", async () => {
    const { status, events, text } = await run(base, "mcp-http");
    expect(status.status, JSON.stringify(status)).toBe("completed");
    const echo = calls(events, "remote_echo");
    expect(echo.result?.data.result).toMatch(/^Echo: /);
    expect(text).not.toContain(SECRET);
  });

  it("a server that crashes at a tool call is started again and the call made again", async () => {
    const { status, events } = await run(base, "mcp-crash");
    expect(status.status, JSON.stringify(status)).toBe("completed");
    expect(fs.readFileSync(crashMarker, "utf8")).toBe("crashed\n");
    // Started once, died at the call, started again for the retry.
    expect(fs.readFileSync(`${crashMarker}.starts`, "utf8").trim().split("\n")).toHaveLength(2);
    const echo = calls(events, "flaky_echo");
    expect(echo.result?.data.result).toBe(`Echo: ${echo.call?.data.tool_input.message}`);
  });

  it("a secret given to a stdio server never appears in the event log, and no Crewdeck secret is inherited", async () => {
    const { status, events, text } = await run(base, "mcp-secret");
    expect(status.status, JSON.stringify(status)).toBe("completed");
    const env = String(calls(events, "everything_get-env").result?.data.result);
    // The server had it (the value is blotted out where it shows), Crewdeck's own are not there.
    expect(env).toContain('"API_TOKEN": "[redacted]"');
    expect(env).not.toContain("CREW_TOKEN");
    expect(env).not.toContain("MCP_TEST_SECRET");
    expect(text).not.toContain(SECRET);
    expect(JSON.stringify(status)).not.toContain(SECRET);
  });

  it("a secret in a gated call's arguments is redacted on the card and in the log; approved, the tool gets it", async () => {
    const forms = [
      SECRET,
      SECRET.toUpperCase(),
      [...SECRET].reverse().join(""),
      Buffer.from(SECRET).toString("base64"),
      Buffer.from(SECRET).toString("hex"),
    ];
    const client = crewClient(base, "mcp-gated-secret", TEST_CREW_TOKEN);
    const id = await client.start({ note: forms.join(" ") });
    const paused = await client.waitFor(id, (s) => s.status === "pending_human_input", 60_000);
    const review = paused.pending_human_inputs[0];
    // (The task's own text holds the note, as the kickoff gave it; the call is what is checked.)
    const card = JSON.stringify([review.tool_calls, review.output]);
    expect(review.tool_calls[0].arguments.content).toMatch(/^Keep this: \[redacted\]/);
    for (const f of forms) expect(card, f).not.toContain(f);
    const r = await client.resume({
      execution_id: id,
      task_id: "keep",
      call_id: review.tool_calls[0].call_id,
      is_approve: true,
      human_feedback: "",
    });
    expect(r.status, r.text).toBe(200);
    const done = await client.waitFor(id, (s) => ["completed", "error"].includes(s.status), 60_000);
    expect(done.status, JSON.stringify(done)).toBe("completed");
    // The server wrote what the model passed, secret and all.
    expect(fs.readFileSync(path.join(work, "kept.txt"), "utf8")).toContain(forms.join(" "));
    const events = (await client.events(id)).json.events as Json[];
    const text = JSON.stringify([
      calls(events, "files_write_file"),
      events.find((e) => e.type === "review_requested")?.data.tool_calls,
    ]);
    expect(text).toContain("[redacted]");
    for (const f of forms) expect(text, f).not.toContain(f);
  });

  // As in CrewAI (mcp/tool_resolver.py): a server the agent cannot use does not fail the task; the
  // agent runs without its tools, and the run says which and why.
  const warned = (events: Json[]) =>
    events.filter((e) => e.type === "tool_warning").map((e) => String(e.data.message));

  it("a private address is refused without TOOL_ALLOWED_NETWORKS: the agent runs without it, and the run says why", async () => {
    const { status, events } = await run(inject("baseUrl"), "mcp-private");
    expect(status.status).toBe("completed");
    expect(warned(events)).toEqual([
      expect.stringMatching(
        /MCP server 'internal'.*127\.0\.0\.1 is a loopback address.*agent helper runs without its tools/,
      ),
    ]);
    expect(events.some((e) => e.type === "tool_call")).toBe(false);
  });

  it("a server that cannot start: the load warns, the run says why and goes on without it", async () => {
    const suite = inject("baseUrl");
    const { status, events } = await run(suite, "mcp-missing");
    expect(status.status).toBe("completed");
    expect(warned(events)).toEqual([
      expect.stringMatching(
        /MCP server 'ghost' could not be started or reached: command 'no-such-mcp-server-crewdeck' not found/,
      ),
    ]);
  });

  it("a tool the server does not have: the run names the server and its tools, and goes on", async () => {
    const { status, events } = await run(inject("baseUrl"), "mcp-unknown-tool");
    expect(status.status).toBe("completed");
    expect(warned(events)).toEqual([
      expect.stringMatching(
        /MCP server 'everything' has no tool 'no-such-tool': its tools are echo, .*get-sum/,
      ),
    ]);
  });

  it("Settings: deployment servers are saved, tested (tools listed), and their credentials must be references", async () => {
    const admin = await adminHeaders(base);
    const clear = await call(base, "PUT", "/api/settings/mcp-servers", {
      headers: admin,
      body: {
        servers: {
          remote: { url: "http://127.0.0.1:1/mcp", headers: { Authorization: "Bearer x" } },
        },
      },
    });
    expect(clear.status, clear.text).toBe(422);
    expect(clear.json.detail).toMatch(/remote\.headers\.Authorization.*never in clear/);

    const secret = await call(base, "PUT", "/api/settings/mcp-secrets", {
      headers: admin,
      body: { secrets: { EVERYTHING_TOKEN: SECRET } },
    });
    expect(secret.status, secret.text).toBe(200);
    expect(secret.text).not.toContain(SECRET);
    expect(secret.json.secrets).toEqual([
      { name: "EVERYTHING_TOKEN", updated_at: expect.any(String) },
    ]);

    const servers = {
      shared: {
        command: "node",
        args: ["node_modules/@modelcontextprotocol/server-everything/dist/index.js", "stdio"],
        env: { API_TOKEN: `\${secret:EVERYTHING_TOKEN}` },
      },
    };
    const saved = await call(base, "PUT", "/api/settings/mcp-servers", {
      headers: admin,
      body: { servers },
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json).toEqual({ servers: { shared: { ...servers.shared } }, warnings: [] });

    // A crew that declares none uses it (its token given to it from the sealed secret).
    const { status, events } = await run(base, "mcp-deployment");
    expect(status.status, JSON.stringify(status)).toBe("completed");
    expect(calls(events, "shared_echo").result?.data.result).toMatch(/^Echo: /);

    const tested = await call(base, "POST", "/api/settings/mcp-servers/test", {
      headers: admin,
      body: { name: "shared" },
    });
    expect(tested.status, tested.text).toBe(200);
    expect(tested.json.ok).toBe(true);
    expect(tested.json.tools).toContainEqual(expect.objectContaining({ name: "echo" }));
    expect(tested.text).not.toContain(SECRET);

    // A crew's own server of the same name wins for its agents: the settings say so.
    const clash = await call(base, "PUT", "/api/settings/mcp-servers", {
      headers: admin,
      body: { servers: { ...servers, everything: servers.shared } },
    });
    expect(clash.json.warnings).toContain(
      "crew 'mcp-everything' declares its own 'everything': its agents use that one, not this",
    );

    // Without an allowed network (the suite's server), a loopback URL is refused, naming it.
    const suite = inject("baseUrl");
    const refused = await call(suite, "POST", "/api/settings/mcp-servers/test", {
      headers: await adminHeaders(suite),
      body: { server: { url: "http://127.0.0.1:9/mcp" } },
    });
    expect(refused.status, refused.text).toBe(200);
    expect(refused.json).toMatchObject({ ok: false });
    expect(refused.json.error).toMatch(/127\.0\.0\.1 is a loopback address/);

    // The dashboard has a Tools tab for it (its sections load in the browser).
    const page = await fetch(`${base}/settings?tab=tools`, { headers: { cookie: admin.cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/>Tools</);

    // Administrators only: an organization token may not read them.
    const org = await call(base, "GET", "/api/settings/mcp-servers", { token: TEST_CREW_TOKEN });
    expect(org.status).toBe(403);
  });

  it("shutdown closes the pooled connections: the stdio servers' processes end with the server", async () => {
    // The crash test's server, started again after its crash, is still pooled (and alive).
    const pid = Number(fs.readFileSync(`${crashMarker}.starts`, "utf8").trim().split("\n").at(-1));
    const alive = (p: number) => {
      try {
        process.kill(p, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(alive(pid)).toBe(true);
    await procs[0]?.kill("SIGTERM");
    expect(procs[0]?.output()).toContain("Shut down cleanly.");
    expect(alive(pid)).toBe(false);
  });
});
