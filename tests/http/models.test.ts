import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { crewClient } from "../support/api";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai";
import { type Proc, startServer, TEST_ADMIN, TEST_CREW_TOKEN, tempDir } from "../support/harness";
import { signIn } from "../support/session";

// Real model providers through the OpenAI-compatible wire format (a loopback server here).
const baseUrl = inject("baseUrl");

describe("openai/<model> via OPENAI_BASE_URL", () => {
  it("runs the tool loop: tool call, tool result, answer", async () => {
    const client = crewClient(baseUrl, "remote-model", TEST_CREW_TOKEN);
    const id = await client.start({ thing: "cats" });
    const done = await client.waitFor(id, (s) => s.status === "completed" || s.status === "error");
    expect(done.status, done.error).toBe("completed");
    expect(done.result).toContain("Final answer from tool-then-answer");
    expect(done.result).toContain('"words":3');
    const events = (await client.events(id)).json.events as {
      type: string;
      data: Record<string, unknown>;
    }[];
    const steps = events.filter((e) =>
      ["thought", "tool_call", "tool_result", "answer"].includes(e.type),
    );
    expect(steps.map((e) => e.type)).toEqual(["thought", "tool_call", "tool_result", "answer"]);
    expect(steps[1]?.data).toMatchObject({
      tool: "word_count",
      tool_input: { text: "one two three" },
    });
    expect(steps[2]?.data).toMatchObject({ tool: "word_count", result: { words: 3 } });
  });

  it("a model that keeps failing ends the execution in error with a readable message", async () => {
    const client = crewClient(baseUrl, "failing-model", TEST_CREW_TOKEN);
    const id = await client.start({});
    const done = await client.waitFor(id, (s) => s.status === "error");
    expect(done.state).toBe("FAILED");
    expect(done.error).toMatch(/openai\/always-500/);
    expect(done.error).toMatch(/HTTP 500/);
    expect(done.error).toMatch(/after 2 attempts/);
    expect(done.tasks[0]).toMatchObject({ status: "error" });
  });

  it("a task over its timeout ends in error saying so", async () => {
    const client = crewClient(baseUrl, "hanging-model", TEST_CREW_TOKEN);
    const id = await client.start({});
    const done = await client.waitFor(id, (s) => s.status === "error");
    expect(done.error).toBe("Task 'wait' timed out after 1 s.");
  });
});

// CrewAI's model names, each against a loopback server speaking its provider's wire protocol.
function crewsWith(crews: Record<string, string>) {
  const dir = tempDir("model-crews");
  for (const [slug, llm] of Object.entries(crews)) {
    fs.mkdirSync(path.join(dir, slug));
    fs.writeFileSync(
      path.join(dir, slug, "crew.yaml"),
      [
        "agents:",
        "  a:",
        "    role: Writer",
        "    goal: Write a line",
        "    backstory: Terse.",
        `    llm: ${llm}`,
        "tasks:",
        "  t: { description: Write one line, expected_output: One line, agent: a }",
        "",
      ].join("\n"),
    );
  }
  return dir;
}

type Step = { type: string; data: { model?: string } };

async function runToEnd(url: string, crew: string) {
  const client = crewClient(url, crew, TEST_CREW_TOKEN);
  const id = await client.start({});
  const done = await client.waitFor(id, (s) => s.status === "completed" || s.status === "error");
  const events = (await client.events(id)).json.events as Step[];
  const stepModels = [...new Set(events.filter((e) => e.data.model).map((e) => e.data.model))];
  return { done, stepModels };
}

const AZURE = { apiKey: "azure-test-key", apiVersion: "2024-10-21" };

describe("CrewAI's model names, each on its provider's wire protocol", () => {
  let server: Proc & { url: string };
  let openai: FakeOpenAI;
  let azure: FakeOpenAI;
  beforeAll(async () => {
    openai = await startFakeOpenAI();
    azure = await startFakeOpenAI({ azure: AZURE });
    server = await startServer({
      CREWS_DIR: crewsWith({
        "on-ollama": "ollama/llama3.1",
        "bare-name": "gpt-4o-mini",
        // CrewAI's object form; the key written in the file must be neither used nor echoed.
        "on-azure":
          "{ model: team-gpt4o, provider: azure, temperature: 0.2, api_key: sk-in-file-123 }",
      }),
      DATA_DIR: tempDir("models"),
      CREW_TOKEN: TEST_CREW_TOKEN,
      // LiteLLM's Ollama base is the server's root; the OpenAI-compatible API is under /v1.
      OLLAMA_API_BASE: openai.url.replace(/\/v1$/, ""),
      OPENAI_BASE_URL: openai.url,
      OPENAI_API_KEY: "openai-test-key",
      AZURE_API_BASE: azure.url,
      AZURE_API_KEY: AZURE.apiKey,
      AZURE_API_VERSION: AZURE.apiVersion,
      MODEL_MAX_RETRIES: "0",
    });
  });
  afterAll(async () => {
    await server?.kill();
    await openai?.close();
    await azure?.close();
  });

  it("ollama/<model> runs against OLLAMA_API_BASE with no key, recorded as ollama/<model>", async () => {
    const { done, stepModels } = await runToEnd(server.url, "on-ollama");
    expect(done.status, done.error).toBe("completed");
    expect(done.result).toContain("Final answer from llama3.1");
    expect(stepModels).toEqual(["ollama/llama3.1"]);
    expect(done.cost).toMatchObject({ models: ["ollama/llama3.1"], usd: 0, unpriced_models: [] });
    const sent = openai.requests.filter((r) => r.model === "llama3.1");
    expect(sent.length).toBeGreaterThan(0);
    expect(sent[0]?.path).toBe("/v1/chat/completions");
    // OpenAI's key is OpenAI's: it does not go to the Ollama server.
    expect(sent[0]?.headers.authorization).toBeUndefined();
  });

  it("a bare gpt-4o-mini is OpenAI's, recorded and priced as openai/gpt-4o-mini", async () => {
    const { done, stepModels } = await runToEnd(server.url, "bare-name");
    expect(done.status, done.error).toBe("completed");
    expect(done.result).toContain("Final answer from gpt-4o-mini");
    expect(stepModels).toEqual(["openai/gpt-4o-mini"]);
    expect(done.cost.models).toEqual(["openai/gpt-4o-mini"]);
    expect(done.cost.usd).toBeGreaterThan(0);
    const sent = openai.requests.find((r) => r.model === "gpt-4o-mini");
    expect(sent?.headers.authorization).toBe("Bearer openai-test-key");
  });

  it("azure/<deployment> calls the deployment's path with api-version and the api-key header", async () => {
    const { done, stepModels } = await runToEnd(server.url, "on-azure");
    expect(done.status, done.error).toBe("completed");
    expect(done.result).toContain("Final answer from team-gpt4o");
    expect(stepModels).toEqual(["azure/team-gpt4o"]);
    const sent = azure.requests[0];
    expect(sent?.path).toBe(
      `/openai/deployments/team-gpt4o/chat/completions?api-version=${AZURE.apiVersion}`,
    );
    expect(sent?.headers["api-key"]).toBe(AZURE.apiKey);
    expect(sent?.headers.authorization).toBeUndefined();
    expect(sent?.body).toMatchObject({ temperature: 0.2 });
  });

  it("the key written in the crew file is warned about at load and never echoed", () => {
    expect(server.output()).toMatch(
      /! on-azure: on-azure\/crew\.yaml:\d+ \[agents\.a\.llm\.api_key\]: an API key written in a crew file is ignored; remove it and set AZURE_API_KEY/,
    );
    expect(server.output()).not.toContain("sk-in-file-123");
    expect(JSON.stringify(azure.requests)).not.toContain("sk-in-file-123");
  });
});

describe("a model without its key", () => {
  const noKeys = {
    OPENAI_API_KEY: "",
    OPENAI_BASE_URL: "",
    OPENAI_API_BASE: "",
    CREW_TOKEN: TEST_CREW_TOKEN,
    OFFLINE_MODEL_DELAY_MS: "1",
    MODEL_MAX_RETRIES: "0",
  };
  const crews = crewsWith({ pinned: "openai/gpt-4o" });

  describe("without LLM_OVERRIDE", () => {
    let server: Proc & { url: string };
    beforeAll(async () => {
      server = await startServer({
        ...noKeys,
        CREWS_DIR: crews,
        DATA_DIR: tempDir("nokey"),
        ADMIN_EMAIL: TEST_ADMIN.email,
        ADMIN_PASSWORD: TEST_ADMIN.password,
      });
    });
    afterAll(async () => {
      await server?.kill();
    });

    it("loads with a warning naming the variable; a run fails saying the same", async () => {
      expect(server.output()).toMatch(
        /! pinned: pinned\/crew\.yaml(:\d+)? \[a\.llm\]: 'openai\/gpt-4o' needs OPENAI_API_KEY: runs fail until it is set/,
      );
      const { done } = await runToEnd(server.url, "pinned");
      expect(done.status).toBe("error");
      expect(done.error).toMatch(/'openai\/gpt-4o' needs OPENAI_API_KEY/);
    });

    it("the Crews page shows the warning", async () => {
      const cookie = await signIn(server.url, TEST_ADMIN.email, TEST_ADMIN.password);
      const page = await fetch(`${server.url}/crews`, { headers: { cookie } });
      expect(page.status).toBe(200);
      const html = (await page.text()).replace(/<!-- -->/g, "");
      expect(html).toContain("pinned: loaded with warnings");
      expect(html).toMatch(/needs OPENAI_API_KEY: runs fail until it is set/);
    });
  });

  describe("with LLM_OVERRIDE=offline", () => {
    let server: Proc & { url: string };
    beforeAll(async () => {
      server = await startServer({
        ...noKeys,
        LLM_OVERRIDE: "offline",
        CREWS_DIR: crews,
        DATA_DIR: tempDir("override"),
      });
    });
    afterAll(async () => {
      await server?.kill();
    });

    it("runs on the offline model with no key and no warning, recorded as offline", async () => {
      expect(server.output()).toContain("LLM_OVERRIDE=offline");
      expect(server.output()).not.toMatch(/ ! pinned/);
      const { done, stepModels } = await runToEnd(server.url, "pinned");
      expect(done.status, done.error).toBe("completed");
      expect(stepModels).toEqual(["offline"]);
      expect(done.cost).toMatchObject({ models: ["offline"], usd: 0 });
    });
  });
});
