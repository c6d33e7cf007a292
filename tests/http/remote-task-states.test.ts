import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { call, crewClient, type Json, until } from "../support/api";
import { type Proc, startServer, TEST_ADMIN, TEST_CREW_TOKEN, tempDir } from "../support/harness";
import { startReceiver } from "../support/receiver";
import { signIn } from "../support/session";

// A run on another Crewdeck whose /status lags behind its event log (a cache, a replica, a poll
// that read it a moment too early): the mirrored run must show the tasks as the log has them.
// The remote's model holds task two's answer until the test lets it go, and a proxy in front of
// the remote can pin /status to what it said while task two was running — so the stale snapshot
// is certain, not a matter of timing.
const baseUrl = inject("baseUrl");
const REMOTE_TOKEN = "gated-remote-token-0123456789abcdef";

const CREW = `name: Gated three
agents:
  worker:
    role: "Step worker"
    goal: "Work on {job}"
    backstory: "Methodical."
    llm: openai/gated
tasks:
  one:
    description: "Step one of {job}"
    expected_output: "Notes"
    agent: worker
  two:
    description: "Step two of {job} (held)"
    expected_output: "More notes"
    agent: worker
  three:
    description: "Step three of {job}"
    expected_output: "Summary"
    agent: worker
`;

/** Chat completions that answer at once, except a prompt saying "(held)" until `release()`. */
async function startGatedModel() {
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const server = http.createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw);
    if (raw.includes("(held)")) await gate;
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        id: "chatcmpl-gated",
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: `Answer ${raw.length}` },
            finish_reason: "stop",
          },
        ],
        usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    release: open,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Forwards everything to `target`; after `pin()`, GET /status answers the body it had then. */
async function startLaggingProxy(target: string) {
  let pinned: string | null = null;
  const server = http.createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    if (pinned !== null && req.method === "GET" && /\/status\//.test(req.url ?? "")) {
      res.writeHead(200, { "content-type": "application/json" }).end(pinned);
      return;
    }
    const headers = Object.fromEntries(
      Object.entries(req.headers).flatMap(([k, v]) =>
        k === "host" || k === "content-length" || v === undefined ? [] : [[k, String(v)]],
      ),
    );
    const reply = await fetch(target + (req.url ?? ""), {
      method: req.method,
      headers,
      body: raw || undefined,
    });
    const text = await reply.text();
    res
      .writeHead(reply.status, { "content-type": reply.headers.get("content-type") ?? "" })
      .end(text);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async pin(statusPath: string) {
      const r = await fetch(target + statusPath, {
        headers: { authorization: `Bearer ${REMOTE_TOKEN}` },
      });
      pinned = await r.text();
      return JSON.parse(pinned) as Json;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

let remote: Proc & { url: string };
let model: Awaited<ReturnType<typeof startGatedModel>>;
let proxy: Awaited<ReturnType<typeof startLaggingProxy>>;
let adminSession: Record<string, string>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  adminSession = {
    cookie: await signIn(baseUrl, TEST_ADMIN.email, TEST_ADMIN.password),
    origin: baseUrl,
  };
  model = await startGatedModel();
  receiver = await startReceiver();
  const crews = tempDir("gated-crews");
  fs.mkdirSync(path.join(crews, "gated"), { recursive: true });
  fs.writeFileSync(path.join(crews, "gated", "crew.yaml"), CREW);
  remote = await startServer({
    DATA_DIR: tempDir("gated-remote"),
    CREWS_DIR: crews,
    CREW_TOKEN: REMOTE_TOKEN,
    OPENAI_BASE_URL: model.url,
    OPENAI_API_KEY: "test-key",
    WORKER_POLL_MS: "100",
    WEBHOOK_ALLOWED_NETWORKS: "127.0.0.0/8",
    WEBHOOK_RETRY_SCHEDULE: "0,200,500,1s",
  });
  proxy = await startLaggingProxy(`${remote.url}/api/crews/gated`);
});
afterAll(async () => {
  model?.release();
  await remote?.kill();
  await proxy?.close();
  await model?.close();
  await receiver?.close();
});

describe("a completed run on another Crewdeck", () => {
  it("shows every task as the remote's log has it, though its /status lags behind", async () => {
    const r = await call(baseUrl, "POST", "/api/deployments", {
      headers: adminSession,
      body: { name: "Gated", base_url: proxy.url, token: REMOTE_TOKEN },
    });
    expect(r.status, r.text).toBe(201);
    const crew = crewClient(baseUrl, `@${r.json.slug}`, TEST_CREW_TOKEN);
    // The kickoff's `webhooks` stream works for a remote run too: its mirrored events go out.
    const kicked = await crew.kickoff({
      inputs: { job: "tides" },
      webhooks: {
        events: ["task_completed", "crew_kickoff_completed"],
        url: receiver.url("/remote-stream"),
        realtime: true,
        authentication: { strategy: "bearer", token: "remote-stream-token" },
      },
    });
    expect(kicked.status, kicked.text).toBe(200);
    const id = kicked.json.kickoff_id as string;
    const states = (s: Json) => s.tasks.map((t: Json) => `${t.task_id}:${t.status}`).join(" ");

    // Task two is under way on the remote (its answer held): one done, two running.
    const midway = await crew.waitFor(
      id,
      (s) => states(s) === "one:completed two:running three:pending",
    );
    expect(midway.status).toBe("running");
    const queued = ((await crew.events(id)).json.events as Json[]).find(
      (e) => e.type === "execution_queued",
    );
    const pinned = await proxy.pin(`/status/${queued?.data.remote_id}`);
    expect(pinned.tasks.map((t: Json) => t.status)).toEqual(["completed", "running", "pending"]);

    model.release();
    const done = await crew.waitFor(id, (s) => s.status === "completed");
    const events = (await crew.events(id)).json.events as Json[];
    expect(events.filter((e) => e.type === "task_completed").map((e) => e.task_id)).toEqual([
      "one",
      "two",
      "three",
    ]);
    expect(states(done)).toBe("one:completed two:completed three:completed");
    expect(done.progress).toEqual({ completed_tasks: 3, total_tasks: 3 });
    expect(done.tasks.every((t: Json) => typeof t.output === "string" && t.output)).toBe(true);

    // Read again later (a reload): nothing the lagging /status says takes it back.
    const again = (await crew.status(id)).json;
    expect(states(again)).toBe("one:completed two:completed three:completed");
    expect(again.in_progress).toEqual([]);

    const streamed = await until(
      "the streamed crew_kickoff_completed",
      () =>
        receiver
          .delivered()
          .filter((p) => p.path === "/remote-stream")
          .flatMap((p) => p.body.events as Json[]),
      (events) => events.some((e) => e.type === "crew_kickoff_completed"),
    );
    expect(streamed.map((e) => `${e.type}:${e.data.task_id ?? ""}`)).toEqual([
      "task_completed:one",
      "task_completed:two",
      "task_completed:three",
      "crew_kickoff_completed:",
    ]);
    expect(receiver.received[0]?.attemptHeaders.authorization).toBe("Bearer remote-stream-token");
  });
});
