import { describe, expect, inject, it } from "vitest";
import { call, crewClient, expectProblem } from "../support/api";
import { TEST_CREW_TOKEN } from "../support/harness";

// The Endpoints and Errors sections of the seed, one rule per test.
const baseUrl = inject("baseUrl");
const brief = crewClient(baseUrl, "brief", TEST_CREW_TOKEN);
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("GET {base_url}/ — health", () => {
  for (const path of ["/api/crews/brief", "/api/crews/brief/"]) {
    it(`${path} answers 200 text/plain Healthy without redirect`, async () => {
      const r = await call(baseUrl, "GET", path, { token: TEST_CREW_TOKEN });
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toMatch(/^text\/plain/);
      expect(r.text).toBe("Healthy");
    });
  }
  it("an unknown crew is a 404 problem", async () => {
    expectProblem(await call(baseUrl, "GET", "/api/crews/nope", { token: TEST_CREW_TOKEN }), 404);
  });
  it("a crew whose file is broken is not served, and says why", async () => {
    const r = await call(baseUrl, "GET", "/api/crews/broken/inputs", { token: TEST_CREW_TOKEN });
    expectProblem(r, 404);
    expect(r.json.detail).toContain("nobody");
  });
});

describe("the benchmarks' baseline routes", () => {
  it("are a 404 problem unless the server runs with BENCH_ROUTES=1", async () => {
    for (const method of ["GET", "POST"] as const) {
      const r = await call(baseUrl, method, "/api/bench/brief/status/x?bytes=10", {});
      expectProblem(r, 404);
      expect(r.json.detail).toContain("No API endpoint at /api/bench/brief/status/x");
      const body = method === "POST" ? { inputs: {} } : undefined;
      const k = await call(baseUrl, method, "/api/bench/brief/kickoff", { body });
      expectProblem(k, 404);
      expect(k.json.detail).toContain("No API endpoint at /api/bench/brief/kickoff");
    }
  });
});

describe("GET /inputs", () => {
  it("lists placeholders in order of first appearance, each once", async () => {
    const r = await brief.inputs();
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toContain("application/json");
    // `inputs` as CrewAI answers; `input_schema` beside it: untyped inputs are required strings.
    expect(r.json).toEqual({
      inputs: ["topic", "audience"],
      input_schema: {
        type: "object",
        properties: {
          topic: { type: "string", title: "Topic", "x-control": "text" },
          audience: { type: "string", title: "Audience", "x-control": "text" },
        },
        required: ["topic", "audience"],
        "x-order": ["topic", "audience"],
      },
    });
  });
  it("serves CrewAI's agents.yaml + tasks.yaml layout", async () => {
    const r = await crewClient(baseUrl, "crewai-style", TEST_CREW_TOKEN).inputs();
    expect(r.json.inputs).toEqual(["sector", "company"]);
  });
  it("serves a CrewAI project in src/<package>/, its tasks' agents read from crew.py", async () => {
    const r = await crewClient(baseUrl, "crewai-project", TEST_CREW_TOKEN).inputs();
    expect(r.status, r.text).toBe(200);
    expect(r.json.inputs).toEqual(["market", "reader"]);
  });
  it("serves CrewAI's crew.jsonc + agents/*.jsonc, its inputs' defaults included", async () => {
    const r = await crewClient(baseUrl, "json-crew", TEST_CREW_TOKEN).inputs();
    expect(r.status, r.text).toBe(200);
    expect(r.json.inputs).toEqual(["topic", "audience"]);
    expect(r.json.input_schema.properties.topic.default).toBe("Tides");
    expect(r.json.input_schema.required).toEqual(["audience"]);
  });
  it("a crew without placeholders has no inputs", async () => {
    expect((await crewClient(baseUrl, "no-inputs", TEST_CREW_TOKEN).inputs()).json).toEqual({
      inputs: [],
      input_schema: { type: "object", properties: {}, required: [], "x-order": [] },
    });
  });
});

describe("POST /kickoff", () => {
  it("answers at once with a UUID kickoff_id", async () => {
    const r = await brief.kickoff({ inputs: { topic: "Tides", audience: "sailors" } });
    expect(r.status).toBe(200);
    expect(r.json.kickoff_id).toMatch(UUID_RE);
  });

  it("accepts numbers and booleans, meta and http(s) webhook URLs", async () => {
    const r = await brief.kickoff({
      inputs: { topic: 42, audience: true },
      meta: { ticket: "T-1" },
      // Host names must resolve now; 127.0.0.2 is in the suite's WEBHOOK_ALLOWED_NETWORKS.
      taskWebhookUrl: "https://127.0.0.2:9/task",
      stepWebhookUrl: "http://127.0.0.2:9/step",
      crewWebhookUrl: "https://127.0.0.2:9/crew",
    });
    expect(r.status, r.text).toBe(200);
  });

  it("takes null or empty callback URLs as none, as CrewAI does (Semantic Kernel sends null)", async () => {
    const r = await brief.kickoff({
      inputs: { topic: "Tides", audience: "sailors" },
      taskWebhookUrl: null,
      stepWebhookUrl: null,
      crewWebhookUrl: "",
    });
    expect(r.status, r.text).toBe(200);
    const done = await brief.waitFor(r.json.kickoff_id, (s) => s.status === "completed");
    expect(done.status).toBe("completed");
  });

  const bad400: [string, string][] = [
    ["malformed JSON", '{"inputs": {'],
    ["an array body", "[1, 2]"],
    ["a string body", '"hello"'],
    ["a null body", "null"],
    ["inputs that is not an object", '{"inputs": "topic=x"}'],
    ["inputs that is an array", '{"inputs": ["x"]}'],
    [
      "a non-URL webhook",
      '{"inputs": {"topic": "a", "audience": "b"}, "taskWebhookUrl": "not a url"}',
    ],
    [
      "an ftp webhook",
      '{"inputs": {"topic": "a", "audience": "b"}, "crewWebhookUrl": "ftp://example.com/x"}',
    ],
    [
      "a javascript: webhook",
      '{"inputs": {"topic": "a", "audience": "b"}, "stepWebhookUrl": "javascript:alert(1)"}',
    ],
    ["meta that is not an object", '{"inputs": {"topic": "a", "audience": "b"}, "meta": "x"}'],
    [
      "meta over 16 KiB",
      JSON.stringify({
        inputs: { topic: "a", audience: "b" },
        meta: { blob: "x".repeat(17 * 1024) },
      }),
    ],
  ];
  for (const [label, body] of bad400) {
    it(`400 for ${label}`, async () => {
      expectProblem(await brief.kickoff(body), 400);
    });
  }

  it("400 names the field that is wrong", async () => {
    const r = await brief.kickoff({
      inputs: { topic: "a", audience: "b" },
      taskWebhookUrl: "nope",
    });
    expect(r.json.errors).toEqual([expect.objectContaining({ path: "taskWebhookUrl" })]);
  });

  const missing: [string, unknown, string[]][] = [
    ["no inputs at all", {}, ["topic", "audience"]],
    ["an empty inputs object", { inputs: {} }, ["topic", "audience"]],
    ["an absent input", { inputs: { topic: "a" } }, ["audience"]],
    ["a null input", { inputs: { topic: null, audience: "b" } }, ["topic"]],
    ["an empty-string input", { inputs: { topic: "a", audience: "" } }, ["audience"]],
  ];
  for (const [label, body, names] of missing) {
    it(`422 with missing_inputs for ${label}`, async () => {
      const r = await brief.kickoff(body);
      expectProblem(r, 422);
      expect(r.json.missing_inputs).toEqual(names);
    });
  }

  it("0 and false are values, not missing", async () => {
    expect((await brief.kickoff({ inputs: { topic: 0, audience: false } })).status).toBe(200);
  });

  it("413 for a body over 1 MiB", async () => {
    const body = JSON.stringify({ inputs: { topic: "a".repeat(1024 * 1024), audience: "b" } });
    expectProblem(await brief.kickoff(body), 413);
  });

  it("413 for a chunked body over 1 MiB (no Content-Length)", async () => {
    const chunk = new TextEncoder().encode("a".repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode('{"inputs":{"topic":"'));
        if (sent++ < 20) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await fetch(`${baseUrl}/api/crews/brief/kickoff`, {
      method: "POST",
      headers: { authorization: `Bearer ${TEST_CREW_TOKEN}`, "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
  });

  it("ignores unknown extra inputs", async () => {
    const id = await brief.start({ topic: "a", audience: "b", extra: "ignored" });
    const events = await brief.events(id);
    expect(events.json.events[0]).toMatchObject({ seq: 1, type: "execution_queued" });
    expect(events.json.events[0].data.inputs).toEqual({ topic: "a", audience: "b" });
  });
});

describe("GET /status/{kickoff_id}", () => {
  it("404 for an unknown id, a non-UUID, and another crew's execution", async () => {
    const id = await brief.start({ topic: "a", audience: "b" });
    expectProblem(await brief.status("00000000-0000-4000-8000-000000000000"), 404);
    expectProblem(await brief.status("not-a-uuid"), 404);
    expectProblem(await brief.status("'; DROP TABLE executions; --"), 404);
    expectProblem(await crewClient(baseUrl, "no-inputs", TEST_CREW_TOKEN).status(id), 404);
  });

  it("reports progress and ends completed with the last task's output as result", async () => {
    const id = await brief.start({ topic: "Volcanoes", audience: "children" });
    const first = await brief.status(id);
    expect(first.json).toMatchObject({
      kickoff_id: id,
      crew: "brief",
      progress: { total_tasks: 2 },
    });
    expect(["queued", "running", "completed"]).toContain(first.json.status);
    const done = await brief.waitFor(id, (s) => s.status === "completed");
    expect(done).toMatchObject({
      status: "completed",
      state: "SUCCESS",
      current_task: null,
      in_progress: [],
      progress: { completed_tasks: 2, total_tasks: 2 },
      pending_human_input: null,
      error: null,
    });
    expect(
      done.tasks.map((t: { task_id: string; status: string; attempts: number }) => [
        t.task_id,
        t.status,
        t.attempts,
      ]),
    ).toEqual([
      ["research", "completed", 1],
      ["write", "completed", 1],
    ]);
    expect(done.result).toBe(done.tasks[1].output);
    expect(done.result).toContain("Volcanoes");
    expect(done.result).toContain("children");
    expect(done.result).toMatch(/offline model/);
    expect(done.last_step).toMatchObject({ type: "answer", task_id: "write" });
    expect(done.execution_time).toBeGreaterThan(0);
    for (const t of done.tasks) {
      expect(Date.parse(t.started_at)).toBeLessThanOrEqual(Date.parse(t.finished_at));
      expect(t.execution_time).toBeGreaterThanOrEqual(0);
    }
  });

  it("interpolates inputs into the task and context reaches later tasks", async () => {
    const id = await brief.start({ topic: "Glaciers", audience: "hikers" });
    const done = await brief.waitFor(id, (s) => s.status === "completed");
    expect(done.tasks[0].output).toContain("Research Glaciers");
    expect(done.tasks[1].output).toContain("Write about Glaciers for hikers");
    expect(done.tasks[1].output).toContain("research"); // built on the research task
  });
});

describe("GET /executions/{id}/events", () => {
  it("lists every step with a gapless sequence, resumable with ?after=", async () => {
    const id = await brief.start({ topic: "a", audience: "b" });
    await brief.waitFor(id, (s) => s.status === "completed");
    const all = (await brief.events(id)).json;
    const seqs = all.events.map((e: { seq: number }) => e.seq);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    const types = all.events.map((e: { type: string }) => e.type);
    expect(types[0]).toBe("execution_queued");
    expect(types.at(-1)).toBe("execution_completed");
    for (const t of [
      "execution_started",
      "task_started",
      "thought",
      "tool_call",
      "tool_result",
      "answer",
      "task_completed",
    ]) {
      expect(types).toContain(t);
    }
    const tail = (await brief.events(id, 5)).json;
    expect(tail.events[0].seq).toBe(6);
    expect(tail.last_seq).toBe(seqs.at(-1));
  });
  it("400 for a bad ?after", async () => {
    expectProblem(
      await call(
        baseUrl,
        "GET",
        "/api/crews/brief/executions/00000000-0000-4000-8000-000000000000/events?after=x",
        { token: TEST_CREW_TOKEN },
      ),
      400,
    );
  });
});

describe("POST /stop/{kickoff_id}", () => {
  it("stops a running execution; a second stop is 409", async () => {
    const id = await brief.start({ topic: "a", audience: "b" });
    const r = await brief.stop(id);
    expect(r.status, r.text).toBe(200);
    expect(r.json).toEqual({ status: "stopped", kickoff_id: id });
    const s = (await brief.status(id)).json;
    expect(s).toMatchObject({ status: "cancelled", state: "FAILED" });
    expectProblem(await brief.stop(id), 409);
    // The worker lets go: nothing completes after the stop.
    await new Promise((res) => setTimeout(res, 500));
    expect((await brief.status(id)).json.status).toBe("cancelled");
  });
  it("409 for a completed execution, 404 for an unknown one", async () => {
    const id = await brief.start({ topic: "a", audience: "b" });
    await brief.waitFor(id, (s) => s.status === "completed");
    expectProblem(await brief.stop(id), 409);
    expectProblem(await brief.stop("00000000-0000-4000-8000-000000000000"), 404);
  });
});

describe("POST /resume — validation", () => {
  it("422 naming every missing field", async () => {
    const r = await brief.resume({});
    expectProblem(r, 422);
    expect(r.json.missing_fields).toEqual([
      "execution_id",
      "task_id",
      "human_feedback",
      "is_approve",
    ]);
  });
  // The contract: 400 for invalid input format, 422 only for required fields that are missing.
  it("400 naming an ill-typed field", async () => {
    const r = await brief.resume({
      execution_id: "x",
      task_id: "t",
      human_feedback: "f",
      is_approve: "yes",
    });
    expectProblem(r, 400);
    expect(r.json.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      "execution_id",
      "is_approve",
    ]);
  });
  it("400 for malformed JSON", async () => {
    expectProblem(await brief.resume("{nope"), 400);
  });
  it("404 for an unknown execution, 400 for one not awaiting review (as CrewAI's API)", async () => {
    const body = { task_id: "research", human_feedback: "ok", is_approve: true };
    expectProblem(
      await brief.resume({ ...body, execution_id: "00000000-0000-4000-8000-000000000000" }),
      404,
    );
    const id = await brief.start({ topic: "a", audience: "b" });
    await brief.waitFor(id, (s) => s.status === "completed");
    expectProblem(await brief.resume({ ...body, execution_id: id }), 400);
  });
});

describe("the rest of /api", () => {
  it("serves an OpenAPI 3.1 document generated from the schemas", async () => {
    const r = await call(baseUrl, "GET", "/api/openapi.json");
    expect(r.status).toBe(200);
    expect(r.json.openapi).toBe("3.1.0");
    expect(Object.keys(r.json.paths)).toEqual(
      expect.arrayContaining([
        "/api/crews/{crew}",
        "/api/crews/{crew}/inputs",
        "/api/crews/{crew}/kickoff",
        "/api/crews/{crew}/status/{kickoff_id}",
        "/api/crews/{crew}/resume",
        "/api/crews/{crew}/stop/{kickoff_id}",
        "/api/runs",
      ]),
    );
    expect(r.json.components.schemas.KickoffRequest.properties.inputs).toBeDefined();
  });
  it("the API reference page renders", async () => {
    const r = await call(baseUrl, "GET", "/docs/api");
    expect(r.status).toBe(200);
    expect(r.text).toContain("/api/crews/{crew}/kickoff");
    // Rendered from the document: the management API and who may call it are there too.
    expect(r.text).toContain("/api/webhooks/deliveries");
    expect(r.text).toContain("Dashboard session: reviewer or above");
  });
  it("an unknown API path is a problem body, not an HTML page", async () => {
    expectProblem(await call(baseUrl, "GET", "/api/nothing-here"), 404);
  });
});

describe("unsupported methods", () => {
  const cases: [string, string, string][] = [
    ["DELETE", "/api/crews/brief/kickoff", "POST"],
    ["GET", "/api/crews/brief/kickoff", "POST"],
    ["PUT", "/api/crews/brief/inputs", "GET"],
    ["POST", "/api/crews/brief", "GET"],
    ["GET", "/api/crews/brief/resume", "POST"],
  ];
  for (const [method, path, allow] of cases) {
    it(`${method} ${path} is a 405 problem with Allow: ${allow}, after the token check`, async () => {
      const r = await call(baseUrl, method, path, { token: TEST_CREW_TOKEN });
      expectProblem(r, 405);
      expect(r.headers.get("allow")).toBe(allow);
      expectProblem(await call(baseUrl, method, path), 401);
    });
  }
});

describe("security headers", () => {
  it.each(["/sign-in", "/docs/api", "/api/openapi.json"])(
    "%s cannot be framed or sniffed and keeps its URL to itself",
    async (path) => {
      const r = await call(baseUrl, "GET", path);
      expect(r.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(r.headers.get("x-content-type-options")).toBe("nosniff");
      expect(r.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(r.headers.get("x-frame-options")).toBe("DENY");
    },
  );
});
