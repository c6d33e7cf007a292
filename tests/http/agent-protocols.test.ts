import { randomUUID } from "node:crypto";
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from "@a2a-js/sdk/client";
import { HttpAgent, verifyEvents } from "@ag-ui/client";
import { EventSchemas } from "@ag-ui/core/schemas";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { a2aProblems } from "../support/a2a-schema";
import { call, crewClient, type Json, until } from "../support/api";
import { TEST_CREW_TOKEN, tokenCli } from "../support/harness";
import { addPerson, adminHeaders } from "../support/people";
import { startReceiver } from "../support/receiver";

// The three agent protocols, driven by their official clients against the real server: MCP
// (@modelcontextprotocol/sdk), A2A 1.0 (@a2a-js/sdk, cards checked against the specification's
// a2a.proto) and AG-UI (@ag-ui/client, events checked by @ag-ui/core's schemas). Each pauses
// on the `review` crew's two reviewed tasks and goes on when a person decides.
const baseUrl = inject("baseUrl");
const serverEnv = inject("serverEnv");
const review = crewClient(baseUrl, "review", TEST_CREW_TOKEN);
const waiting = (task: string) => (s: Json) =>
  s.status === "pending_human_input" && s.pending_human_input?.task_id === task;
const approve = async (id: string, task: string) => {
  await review.waitFor(id, waiting(task));
  const r = await review.resume({
    execution_id: id,
    task_id: task,
    human_feedback: "",
    is_approve: true,
  });
  expect(r.status, r.text).toBe(200);
};

const userToken = async (email: string) =>
  (await tokenCli(["create", "--user", email], serverEnv)).token as string;

let operator: string; // may start, not review
let otherOperator: string; // another person with the same role
let viewer: string; // demoted from operator: may read only
let revoked: string;

beforeAll(async () => {
  const op = await addPerson(baseUrl, { email: "protocol-operator@example.com", role: "operator" });
  operator = await userToken(op.email);
  const other = await addPerson(baseUrl, { email: "protocol-other@example.com", role: "operator" });
  otherOperator = await userToken(other.email);
  const vw = await addPerson(baseUrl, { email: "protocol-viewer@example.com", role: "operator" });
  viewer = await userToken(vw.email);
  const demoted = await call(baseUrl, "PATCH", `/api/users/${vw.id}`, {
    headers: await adminHeaders(baseUrl),
    body: { role: "viewer" },
  });
  expect(demoted.status, demoted.text).toBe(200);
  revoked = await userToken(op.email);
  await tokenCli(["revoke", revoked], serverEnv);
});

async function mcpClient(token: string) {
  const client = new Client(
    { name: "crewdeck-test", version: "1.0.0" },
    { capabilities: { tasks: { list: {}, cancel: {}, requests: {} } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/api/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

describe("MCP", () => {
  it("lists the crews a token may start as tools; a viewer's token sees none", async () => {
    const client = await mcpClient(TEST_CREW_TOKEN);
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === "review");
    expect(tool).toMatchObject({
      title: "Reviewed draft",
      inputSchema: { type: "object", required: ["subject"] },
      execution: { taskSupport: "optional" },
    });
    expect(tools.map((t) => t.name)).toContain("no-inputs");
    await client.close();

    const seeing = await mcpClient(viewer);
    expect((await seeing.listTools()).tools).toEqual([]);
    await expect(seeing.callTool({ name: "no-inputs", arguments: {} })).rejects.toThrow(
      /Unknown tool: no-inputs/,
    );
    await seeing.close();
  });

  it("a call without a task waits for the result, with progress; bad arguments are an error", async () => {
    const client = await mcpClient(operator);
    const progress: string[] = [];
    const result = await client.callTool({ name: "no-inputs", arguments: {} }, undefined, {
      onprogress: (p) => progress.push(p.message ?? ""),
    });
    expect(result.isError).toBe(false);
    expect(result.content).toEqual([{ type: "text", text: expect.stringContaining("day") }]);
    expect(result.structuredContent).toMatchObject({ status: "completed", crew: "no-inputs" });
    expect(progress.length).toBeGreaterThan(0);
    await expect(client.callTool({ name: "review", arguments: {} })).rejects.toThrow(/subject/);
    await client.close();
  });

  it("a task pauses in input_required for review and completes after approvals in the inbox", async () => {
    const client = await mcpClient(operator);
    // The client learns from the list which tools take tasks (execution.taskSupport).
    await client.listTools();
    const seen: Json[] = [];
    const stream = client.experimental.tasks.callToolStream({
      name: "review",
      arguments: { subject: "otters" },
    });
    const done = (async () => {
      for await (const m of stream) seen.push(m);
    })();
    const created = await until(
      "the task",
      () => seen.find((m) => m.type === "taskCreated"),
      Boolean,
    );
    const id = (created as Json).task.taskId as string;
    const task = await until(
      "input_required",
      () => client.experimental.tasks.getTask(id),
      (t) => t.status === "input_required",
    );
    expect(task.statusMessage).toMatch(/task 'draft' awaits review[\s\S]*otters/);
    await approve(id, "draft");
    await approve(id, "polish");
    await done;
    const last = seen.at(-1);
    expect(last.type, JSON.stringify(last)).toBe("result");
    expect(last.result).toMatchObject({
      isError: false,
      structuredContent: { status: "completed" },
    });
    expect((await client.experimental.tasks.getTask(id)).status).toBe("completed");
    const listed = await client.experimental.tasks.listTasks();
    expect(listed.tasks.map((t) => t.taskId)).toContain(id);
    await client.close();

    // Another token's task is not this one's to see.
    const other = await mcpClient(TEST_CREW_TOKEN);
    await expect(other.experimental.tasks.getTask(randomUUID())).rejects.toThrow(/not found/i);
    await other.close();
  });

  it("tasks/cancel stops the run", async () => {
    const client = await mcpClient(operator);
    const created = await client.request(
      {
        method: "tools/call",
        params: { name: "review", arguments: { subject: "cancel me" }, task: { ttl: 60_000 } },
      },
      (await import("@modelcontextprotocol/sdk/types.js")).CreateTaskResultSchema,
    );
    const id = created.task.taskId;
    const cancelled = await client.experimental.tasks.cancelTask(id);
    expect(cancelled.status).toBe("cancelled");
    expect((await review.status(id)).json.status).toBe("cancelled");
    await client.close();
  });
});

/** An A2A client for `path`'s card, sending the token (cards and calls need one). */
async function a2aClient(token: string, path = "/api/a2a/review/") {
  const fetchImpl: typeof fetch = (url, init) =>
    fetch(url, {
      ...init,
      headers: { ...(init?.headers as Record<string, string>), authorization: `Bearer ${token}` },
    });
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  );
  return factory.createFromUrl(`${baseUrl}${path}`);
}

const text = (words: string, taskId = "") =>
  ({
    message: {
      messageId: randomUUID(),
      contextId: "",
      taskId,
      role: 1, // ROLE_USER
      parts: [
        {
          content: { $case: "text", value: words },
          metadata: undefined,
          filename: "",
          mediaType: "",
        },
      ],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: undefined,
    metadata: undefined,
    tenant: "",
    // biome-ignore lint/suspicious/noExplicitAny: the SDK's generated request type, filled in full above
  }) as any;

const rpc = (token: string | undefined, path: string, method: string, params: unknown) =>
  call(baseUrl, "POST", path, {
    ...(token ? { token } : {}),
    headers: { "a2a-version": "1.0" },
    body: { jsonrpc: "2.0", id: 1, method, params },
  });

describe("A2A", () => {
  it("serves cards valid under the specification's schema: the host's public, a crew's with a token", async () => {
    const host = await call(baseUrl, "GET", "/.well-known/agent-card.json");
    expect(host.status, host.text).toBe(200);
    expect(a2aProblems("AgentCard", host.json)).toEqual([]);
    // It names no crew: the crews are for callers with a token.
    expect(host.json.skills.map((s: Json) => s.id)).toEqual(["crews"]);
    expect(host.text).not.toContain("Reviewed draft");
    const card = await call(baseUrl, "GET", "/api/a2a/review/.well-known/agent-card.json", {
      token: TEST_CREW_TOKEN,
    });
    expect(card.status, card.text).toBe(200);
    expect(a2aProblems("AgentCard", card.json)).toEqual([]);
    expect(card.json).toMatchObject({
      name: "Reviewed draft",
      supportedInterfaces: [{ protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
      skills: [{ id: "draft" }, { id: "polish" }],
    });
    // The schema check can fail: a card without its name is refused.
    expect(a2aProblems("AgentCard", { ...card.json, name: undefined })).toContain(
      "AgentCard.name: required by AgentCard",
    );
    expect((await call(baseUrl, "GET", "/api/a2a/review/.well-known/agent-card.json")).status).toBe(
      401,
    );
    const extended = await rpc(TEST_CREW_TOKEN, "/api/a2a", "GetExtendedAgentCard", {});
    expect(a2aProblems("AgentCard", extended.json.result)).toEqual([]);
    expect(extended.json.result.skills.map((s: Json) => s.id)).toContain("review");
  });

  it("send blocks until input-required; a reviewer's reply decides; stream and get follow it", async () => {
    const client = await a2aClient(TEST_CREW_TOKEN);
    const first = (await client.sendMessage(text("otters"))) as Json;
    expect(first.status.state).toBe(6); // INPUT_REQUIRED
    const id = first.id as string;
    const raw = await rpc(TEST_CREW_TOKEN, "/api/a2a/review", "GetTask", { id });
    expect(a2aProblems("Task", raw.json.result)).toEqual([]);
    expect(raw.json.result.status.message.parts[0].text).toMatch(/task 'draft' awaits review/);

    // A reply on the task is the decision: "approve" accepts draft; polish now waits.
    const second = (await client.sendMessage(text("approve", id))) as Json;
    expect(second.status.state).toBe(6);
    expect((await review.status(id)).json.pending_human_input.task_id).toBe("polish");

    const events: Json[] = [];
    for await (const e of client.sendMessageStream(text("lgtm", id))) events.push(e.payload);
    expect(events[0].$case).toBe("task");
    // The run may finish before the stream's first event (then the Task says it all) or after.
    const last = events.at(-1);
    expect(last.value.status.state, JSON.stringify(events)).toBe(3); // COMPLETED
    const result = events.flatMap((e) =>
      e.$case === "task"
        ? e.value.artifacts
        : e.$case === "artifactUpdate"
          ? [e.value.artifact]
          : [],
    );
    expect(result[0].parts[0].content.value).toContain("otters");

    const got = (await client.getTask({ id, historyLength: undefined, tenant: "" })) as Json;
    expect(got.status.state).toBe(3); // COMPLETED
    expect(got.artifacts[0].parts[0].content.value).toContain("otters");
    const rawDone = await rpc(TEST_CREW_TOKEN, "/api/a2a/review", "GetTask", { id });
    expect(a2aProblems("Task", rawDone.json.result)).toEqual([]);
    const context = rawDone.json.result.contextId;
    const listed = await rpc(TEST_CREW_TOKEN, "/api/a2a/review", "ListTasks", {
      contextId: context,
    });
    expect(a2aProblems("ListTasksResponse", listed.json.result)).toEqual([]);
    expect(listed.json.result).toMatchObject({ totalSize: 1, tasks: [{ id }], nextPageToken: "" });
  });

  it("an operator's reply leaves the review to the inbox; cancel stops; errors use A2A's codes", async () => {
    const client = await a2aClient(operator);
    const started = await rpc(operator, "/api/a2a/review", "SendMessage", {
      message: {
        messageId: randomUUID(),
        role: "ROLE_USER",
        parts: [{ data: { subject: "owls" } }],
      },
      configuration: { returnImmediately: true },
    });
    expect(started.status, started.text).toBe(200);
    const id = started.json.result.task.id as string;
    await review.waitFor(id, waiting("draft"));
    const replied = (await client.sendMessage(text("approve", id))) as Json;
    expect(replied.status.state).toBe(6);
    expect((await review.status(id)).json.pending_human_input.task_id).toBe("draft");

    const cancelled = (await client.cancelTask({ id, tenant: "", metadata: undefined })) as Json;
    expect(cancelled.status.state).toBe(5); // CANCELED
    const again = await rpc(operator, "/api/a2a/review", "CancelTask", { id });
    expect(again.json.error.code).toBe(-32002); // TaskNotCancelableError
    const missing = await rpc(operator, "/api/a2a/review", "GetTask", { id: randomUUID() });
    expect(missing.json.error.code).toBe(-32001); // TaskNotFoundError
    const legacy = await rpc(operator, "/api/a2a/review", "message/send", {});
    expect(legacy.json.error.code).toBe(-32009); // VersionNotSupportedError
    const versioned = (version: string) =>
      call(baseUrl, "POST", "/api/a2a/review", {
        token: operator,
        headers: { "a2a-version": version },
        body: { jsonrpc: "2.0", id: 2, method: "GetTask", params: { id } },
      });
    expect((await versioned("1.0.2")).json.result.id).toBe(id); // matched on major.minor
    expect((await versioned("0.3")).json.error.code).toBe(-32009);
    const bad = await rpc(operator, "/api/a2a/review", "SendMessage", { message: { parts: [] } });
    expect(bad.json.error.code).toBe(-32602);
    // A viewer's token may not start the crew.
    const refused = await rpc(viewer, "/api/a2a/review", "SendMessage", {
      message: { messageId: randomUUID(), role: "ROLE_USER", parts: [{ text: "x" }] },
    });
    expect(refused.json.error.message).toMatch(/No crew named 'review' that you may start/);
  });
});

describe("A2A between two people", () => {
  it("another person's token finds nothing of a task: no read, cancel, answer, push or listing", async () => {
    const started = await rpc(operator, "/api/a2a/review", "SendMessage", {
      message: {
        messageId: randomUUID(),
        role: "ROLE_USER",
        parts: [{ data: { subject: "moths" } }],
      },
      configuration: { returnImmediately: true },
    });
    expect(started.status, started.text).toBe(200);
    const id = started.json.result.task.id as string;
    await review.waitFor(id, waiting("draft"));

    const asOther = (method: string, params: unknown) =>
      rpc(otherOperator, "/api/a2a/review", method, params);
    const answers = [
      await asOther("GetTask", { id }),
      await asOther("CancelTask", { id }),
      await asOther("SubscribeToTask", { id }),
      await asOther("CreateTaskPushNotificationConfig", {
        taskId: id,
        url: "http://127.0.0.2:9/hook",
      }),
      await asOther("ListTaskPushNotificationConfigs", { taskId: id }),
      await asOther("SendMessage", {
        message: {
          messageId: randomUUID(),
          role: "ROLE_USER",
          taskId: id,
          parts: [{ text: "approve" }],
        },
      }),
    ];
    for (const r of answers) {
      expect(r.json.error?.code, r.text).toBe(-32001); // TaskNotFoundError, as for no task at all
      expect(r.text).not.toContain("moths");
    }
    const listed = await asOther("ListTasks", {});
    expect(listed.json.result.tasks.map((t: Json) => t.id)).not.toContain(id);
    // Untouched: still waiting on its review, and its owner still sees it.
    expect((await review.status(id)).json.status).toBe("pending_human_input");
    expect((await rpc(operator, "/api/a2a/review", "GetTask", { id })).json.result.id).toBe(id);
    await review.stop(id);
  });
});

describe("A2A push notifications", () => {
  it("go through the webhook outbox: signed, with the client's credentials, in order", async () => {
    const receiver = await startReceiver();
    try {
      const started = await rpc(TEST_CREW_TOKEN, "/api/a2a/review", "SendMessage", {
        message: { messageId: randomUUID(), role: "ROLE_USER", parts: [{ text: "herons" }] },
        configuration: {
          returnImmediately: true,
          taskPushNotificationConfig: {
            url: receiver.url("/a2a"),
            token: "notify-token-1",
            authentication: { scheme: "Bearer", credentials: "push-secret-1" },
          },
        },
      });
      expect(started.status, started.text).toBe(200);
      const id = started.json.result.task.id as string;
      const states = () =>
        receiver
          .delivered()
          .filter((r) => r.path === "/a2a" && r.body.statusUpdate)
          .map((r) => r.body.statusUpdate.status.state);
      await until("input-required pushed", states, (s) => s.includes("TASK_STATE_INPUT_REQUIRED"));
      const first = receiver.delivered()[0];
      expect(first?.validSignature).toBe(true);
      expect(first?.attemptHeaders).toMatchObject({
        authorization: "Bearer push-secret-1",
        "x-a2a-notification-token": "notify-token-1",
      });
      for (const r of receiver.delivered())
        expect(a2aProblems("StreamResponse", r.body)).toEqual([]);

      // The config methods: a second endpoint, listed without its secrets, then removed.
      const created = await rpc(
        TEST_CREW_TOKEN,
        "/api/a2a/review",
        "CreateTaskPushNotificationConfig",
        {
          taskId: id,
          url: receiver.url("/other"),
          authentication: { scheme: "Bearer", credentials: "push-secret-2" },
        },
      );
      expect(a2aProblems("TaskPushNotificationConfig", created.json.result)).toEqual([]);
      const listed = await rpc(
        TEST_CREW_TOKEN,
        "/api/a2a/review",
        "ListTaskPushNotificationConfigs",
        {
          taskId: id,
        },
      );
      expect(listed.json.result.configs).toHaveLength(2);
      expect(listed.text).not.toContain("push-secret");
      const removed = await rpc(
        TEST_CREW_TOKEN,
        "/api/a2a/review",
        "DeleteTaskPushNotificationConfig",
        {
          taskId: id,
          id: created.json.result.id,
        },
      );
      expect(removed.json.result).toEqual({});
      const gone = await rpc(TEST_CREW_TOKEN, "/api/a2a/review", "GetTaskPushNotificationConfig", {
        taskId: id,
        id: created.json.result.id,
      });
      expect(gone.json.error.code).toBe(-32602);
      // A private address is refused, as for every webhook.
      const refused = await rpc(
        TEST_CREW_TOKEN,
        "/api/a2a/review",
        "CreateTaskPushNotificationConfig",
        {
          taskId: id,
          url: "http://10.1.2.3/hook",
        },
      );
      expect(refused.json.error).toMatchObject({ code: -32602, message: /refused/ });

      await approve(id, "draft");
      await approve(id, "polish");
      await until("completed pushed", states, (s) => s.at(-1) === "TASK_STATE_COMPLETED");
      const artifact = receiver.delivered().find((r) => r.body.artifactUpdate);
      expect(artifact?.body.artifactUpdate.artifact.parts[0].text).toContain("herons");
      expect(receiver.received.filter((r) => r.path === "/other")).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});

async function agUi(token: string, body: Json, crew = "review") {
  const agent = new HttpAgent({
    url: `${baseUrl}/api/ag-ui/${crew}`,
    headers: { authorization: `Bearer ${token}` },
  });
  const input = {
    threadId: "t1",
    runId: randomUUID(),
    messages: [],
    tools: [],
    context: [],
    ...body,
  };
  // verifyEvents: the client's own check of the event order (steps closed, one RUN_FINISHED…).
  const events = await new Promise<Json[]>((resolve, reject) => {
    const out: Json[] = [];
    agent
      .run(input)
      .pipe(verifyEvents(false))
      .subscribe({ next: (e) => out.push(e), error: reject, complete: () => resolve(out) });
  });
  for (const e of events) expect(EventSchemas.safeParse(e).success, JSON.stringify(e)).toBe(true);
  return events as Json[];
}

describe("AG-UI", () => {
  it("streams a run as events, ends in an interrupt for review, and goes on with the answer", async () => {
    const first = await agUi(TEST_CREW_TOKEN, {
      messages: [{ id: "m1", role: "user", content: "otters" }],
    });
    const types = first.map((e) => e.type);
    expect(types[0]).toBe("RUN_STARTED");
    expect(types).toContain("STEP_STARTED");
    expect(types).toContain("TEXT_MESSAGE_CONTENT");
    const end = first.at(-1);
    expect(end).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "interrupt" } });
    const interrupt = end.outcome.interrupts[0];
    expect(interrupt).toMatchObject({ reason: "human_review", metadata: { task_id: "draft" } });

    const second = await agUi(TEST_CREW_TOKEN, {
      resume: [{ interruptId: interrupt.id, status: "resolved", payload: { approved: true } }],
    });
    const next = second.at(-1);
    expect(next.outcome.interrupts[0].metadata.task_id).toBe("polish");
    expect(second.filter((e) => e.type === "STEP_STARTED").map((e) => e.stepName)).toEqual([
      "polish",
    ]);

    // The same interrupt answered twice: it is no longer open.
    const stale = await call(baseUrl, "POST", "/api/ag-ui/review", {
      token: TEST_CREW_TOKEN,
      body: {
        threadId: "t1",
        runId: "r3",
        messages: [],
        resume: [{ interruptId: interrupt.id, status: "resolved", payload: { approved: true } }],
      },
    });
    expect(stale.status).toBe(409);

    const third = await agUi(TEST_CREW_TOKEN, {
      resume: [
        {
          interruptId: next.outcome.interrupts[0].id,
          status: "resolved",
          payload: { approved: true },
        },
      ],
    });
    expect(third.at(-1)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success" } });
    expect(third.at(-1).result).toContain("otters");
  });

  it("a flow streams its state; its sign-off is an interrupt offering the outcomes", async () => {
    const flow = (body: Json) => agUi(TEST_CREW_TOKEN, body, "release-flow");
    const answer = (interrupt: Json, payload: Json) => ({
      resume: [{ interruptId: interrupt.id, status: "resolved", payload }],
    });
    const first = await flow({
      state: { inputs: { product: "Deck", changes: ["fix login", "add export"] } },
    });
    expect(first[1]).toMatchObject({ type: "STATE_SNAPSHOT", snapshot: { product: "Deck" } });
    const steps = first.filter((e) => e.type === "STEP_STARTED").map((e) => e.stepName);
    expect(steps.sort()).toEqual(["classify", "collect", "draft", "lines"]);
    const notes = first.at(-1).outcome.interrupts[0];
    expect(notes).toMatchObject({ reason: "human_review", metadata: { task_id: "notes" } });

    const second = await flow(answer(notes, { approved: true }));
    const signOff = second.at(-1).outcome.interrupts[0];
    expect(signOff).toMatchObject({
      reason: "human_feedback",
      message: "Publish these notes?",
      responseSchema: { properties: { outcome: { enum: ["publish", "revise"] } } },
    });
    const third = await flow(answer(signOff, { approved: true, outcome: "publish" }));
    expect(third.at(-1)).toMatchObject({
      type: "RUN_FINISHED",
      outcome: { type: "success" },
      result: "Published: Deck",
    });
  });

  it("an operator may start but not answer; a malformed input is a 400", async () => {
    const first = await agUi(operator, { messages: [{ id: "m1", role: "user", content: "bats" }] });
    const id = first.at(-1).outcome.interrupts[0].id;
    const answer = await call(baseUrl, "POST", "/api/ag-ui/review", {
      token: operator,
      body: {
        threadId: "t",
        runId: "r",
        messages: [],
        resume: [{ interruptId: id, status: "resolved", payload: { approved: true } }],
      },
    });
    expect(answer.status).toBe(403);
    expect(
      (await call(baseUrl, "POST", "/api/ag-ui/review", { token: operator, body: "{" })).status,
    ).toBe(400);
    expect(
      (await call(baseUrl, "POST", "/api/ag-ui/review", { token: operator, body: {} })).status,
    ).toBe(422);
    await review.stop(first.at(-1).outcome.interrupts[0].metadata.kickoff_id);
  });
});

describe("every protocol", () => {
  it("refuses a revoked token", async () => {
    await expect(mcpClient(revoked)).rejects.toThrow(/401/);
    expect((await rpc(revoked, "/api/a2a/review", "GetTask", { id: randomUUID() })).status).toBe(
      401,
    );
    expect(
      (
        await call(baseUrl, "GET", "/api/a2a/review/.well-known/agent-card.json", {
          token: revoked,
        })
      ).status,
    ).toBe(401);
    const r = await call(baseUrl, "POST", "/api/ag-ui/review", {
      token: revoked,
      body: { threadId: "t", runId: "r", messages: [] },
    });
    expect(r.status).toBe(401);
  });
});
