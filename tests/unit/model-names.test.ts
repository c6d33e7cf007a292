import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readAgentLlm } from "@/lib/crew/agent-llm";
import { loadCrews } from "@/lib/crew/load-crews";
import { modelWarnings } from "@/lib/crew/model-warnings";
import { chooseModel, missingSetup } from "@/lib/llm/choose-model";
import { parseModelRef } from "@/lib/llm/model-ref";
import { endpointFor, PROVIDERS } from "@/lib/llm/providers";
import {
  DEFAULT_MODEL_PRICES,
  estimateCost,
  normalizeModelId,
  priceFor,
} from "@/lib/run-model/pricing";

// Models as CrewAI (through LiteLLM) names them. The environment is passed in, never read.
const NONE = {};
const provider = (name: string) => {
  const p = PROVIDERS[name];
  if (!p) throw new Error(`no provider ${name}`);
  return p;
};

describe("parseModelRef", () => {
  it.each([
    ["offline", "offline", "offline", "offline"],
    ["gpt-4o-mini", "openai", "gpt-4o-mini", "openai/gpt-4o-mini"],
    ["o3", "openai", "o3", "openai/o3"],
    ["openai/gpt-4o", "openai", "gpt-4o", "openai/gpt-4o"],
    [
      "anthropic/claude-sonnet-4-5",
      "anthropic",
      "claude-sonnet-4-5",
      "anthropic/claude-sonnet-4-5",
    ],
    ["ollama/llama3.1", "ollama", "llama3.1", "ollama/llama3.1"],
    ["ollama/llama3.1:8b", "ollama", "llama3.1:8b", "ollama/llama3.1:8b"],
    ["ollama_chat/qwen2.5", "ollama", "qwen2.5", "ollama/qwen2.5"],
    [
      "groq/llama-3.3-70b-versatile",
      "groq",
      "llama-3.3-70b-versatile",
      "groq/llama-3.3-70b-versatile",
    ],
    ["gemini/gemini-2.0-flash", "gemini", "gemini-2.0-flash", "gemini/gemini-2.0-flash"],
    ["openrouter/openai/gpt-4o", "openrouter", "openai/gpt-4o", "openrouter/openai/gpt-4o"],
    ["azure/my-gpt4o-deployment", "azure", "my-gpt4o-deployment", "azure/my-gpt4o-deployment"],
    ["OpenAI/gpt-4o", "openai", "gpt-4o", "openai/gpt-4o"],
    ["deepseek/deepseek-chat", "deepseek", "deepseek-chat", "deepseek/deepseek-chat"],
    ["lm_studio/qwen", "lm_studio", "qwen", "lm_studio/qwen"],
  ])("%s → provider %s, model %s, id %s", (ref, provider, model, id) => {
    expect(parseModelRef(ref, NONE)).toEqual({ value: { provider, model, id } });
  });

  it("an unknown provider is an error naming the known ones and the way to add one", () => {
    const { value, error } = parseModelRef("foo/bar", NONE);
    expect(value).toBeUndefined();
    expect(error).toContain("unknown provider 'foo' in 'foo/bar'");
    for (const p of ["openai", "anthropic", "ollama", "groq", "gemini", "openrouter", "azure"])
      expect(error).toContain(p);
    expect(error).toContain("FOO_API_BASE");
  });

  it("any provider whose <PROVIDER>_API_BASE or _BASE_URL is set is an OpenAI-compatible server", () => {
    expect(parseModelRef("vllm/qwen", { VLLM_API_BASE: "http://gpu:8000/v1" }).value?.id).toBe(
      "vllm/qwen",
    );
    expect(parseModelRef("my-gw/m", { MY_GW_BASE_URL: "http://gw/v1" }).value?.id).toBe("my-gw/m");
  });

  it.each([
    ["openai/", /names no model/],
    ["gpt 4o", /not a model name/],
    ["  ", /not a model name/],
  ])("%j is an error", (ref, message) => {
    expect(parseModelRef(ref, NONE).error).toMatch(message);
  });
});

describe("readAgentLlm: CrewAI's object form", () => {
  it("takes model and the LLM settings, in the one spelling", () => {
    expect(
      readAgentLlm(
        {
          model: "llama3.1",
          provider: "ollama",
          base_url: "http://gpu-box:11434",
          temperature: 0.2,
          max_tokens: 500,
          top_p: 0.9,
          stop: "END",
          seed: 7,
        },
        NONE,
      ),
    ).toEqual({
      llm: "ollama/llama3.1",
      llm_params: {
        base_url: "http://gpu-box:11434",
        temperature: 0.2,
        max_tokens: 500,
        top_p: 0.9,
        stop: ["END"],
        seed: 7,
      },
      warnings: [],
      error: undefined,
    });
  });

  it("a provider already in the model name is not added twice; a bare model is OpenAI's", () => {
    expect(readAgentLlm({ model: "ollama/llama3.1", provider: "ollama" }, NONE).llm).toBe(
      "ollama/llama3.1",
    );
    expect(readAgentLlm({ model: "ollama/llama3.1", provider: "ollama_chat" }, NONE).llm).toBe(
      "ollama/llama3.1",
    );
    expect(readAgentLlm({ model: "openai/gpt-4o", provider: "openrouter" }, NONE).llm).toBe(
      "openrouter/openai/gpt-4o",
    );
    expect(readAgentLlm({ model: "gpt-4o-mini" }, NONE)).toEqual({
      llm: "openai/gpt-4o-mini",
      warnings: [],
      error: undefined,
    });
    expect(readAgentLlm({ model: "x", api_base: "http://h/v1" }, NONE).llm_params).toEqual({
      base_url: "http://h/v1",
    });
  });

  it("an API key in the crew file is ignored with a warning that never repeats it", () => {
    const read = readAgentLlm({ model: "gpt-4o", api_key: "sk-secret-123" }, NONE);
    expect(read.llm).toBe("openai/gpt-4o");
    expect(read.llm_params).toBeUndefined();
    expect(read.warnings).toEqual([
      { key: "api_key", message: expect.stringContaining("set OPENAI_API_KEY") },
    ]);
    expect(JSON.stringify(read)).not.toContain("sk-secret-123");
    expect(readAgentLlm({ model: "groq/x", api_key: "k" }, NONE).warnings[0]?.message).toContain(
      "GROQ_API_KEY",
    );
  });

  it("unknown keys are warned about; a bad provider is an error", () => {
    expect(readAgentLlm({ model: "gpt-4o", callbacks: [] }, NONE).warnings).toEqual([
      { key: "callbacks", message: "unknown key ignored" },
    ]);
    expect(readAgentLlm({ model: "m", provider: "nope" }, NONE).error).toMatch(
      /unknown provider 'nope'/,
    );
  });
});

const made: string[] = [];
function crewsDir(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-models-"));
  made.push(dir);
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  }
  return dir;
}
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

const TASK = "tasks:\n  t: { description: D, expected_output: E, agent: a }\n";

describe("loadCrews with CrewAI's model names", () => {
  it("loads bare names and the object form; warns about a key in the file", () => {
    const dir = crewsDir({
      "bare/crew.yaml": `agents:\n  a: { role: R, goal: G, backstory: B, llm: gpt-4o-mini }\n${TASK}`,
      "object/config/agents.yaml": [
        "a:",
        "  role: R",
        "  goal: G",
        "  backstory: B",
        "  llm:",
        "    model: llama3.1",
        "    provider: ollama",
        "    temperature: 0.3",
        "    api_key: sk-do-not-echo",
      ].join("\n"),
      "object/config/tasks.yaml": "t: { description: D, expected_output: E, agent: a }\n",
    });
    const catalog = loadCrews(dir);
    expect(catalog.errors).toEqual([]);
    expect(catalog.crews.get("bare")?.agents[0]?.llm).toBe("openai/gpt-4o-mini");
    const agent = catalog.crews.get("object")?.agents[0];
    expect(agent).toMatchObject({ llm: "ollama/llama3.1", llm_params: { temperature: 0.3 } });
    expect(catalog.warnings).toEqual([
      {
        slug: "object",
        file: path.join("object", "config", "agents.yaml"),
        key: "a.llm.api_key",
        message: expect.stringMatching(/ignored.*OLLAMA_API_KEY/),
      },
    ]);
    expect(JSON.stringify(catalog)).not.toContain("sk-do-not-echo");
  });

  it("an unknown provider or a bad setting makes the crew unloadable, saying where", () => {
    const catalog = loadCrews(
      crewsDir({
        "p/crew.yaml": `agents:\n  a: { role: R, goal: G, backstory: B, llm: foo/bar }\n${TASK}`,
        "t/crew.yaml": `agents:\n  a: { role: R, goal: G, backstory: B, llm: { model: gpt-4o, temperature: hot } }\n${TASK}`,
        "n/crew.yaml": `agents:\n  a: { role: R, goal: G, backstory: B, llm: 42 }\n${TASK}`,
      }),
    );
    expect(catalog.crews.size).toBe(0);
    const by = Object.fromEntries(catalog.errors.map((e) => [e.slug, e]));
    expect(by.p).toMatchObject({
      key: "agents.a.llm",
      reason: expect.stringMatching(/unknown provider/),
    });
    expect(by.t?.key).toMatch(/a\.llm/);
    expect(by.n?.reason).toMatch(/llm must be a model name/);
  });
});

describe("keys and base URLs", () => {
  it("a missing key is said; a base URL from the environment needs none (a local server)", () => {
    const choice = (llm: string) => chooseModel({ llm }, { DEFAULT_LLM: "offline" }, NONE);
    expect(missingSetup(choice("openai/gpt-4o"), NONE)).toBe(
      "'openai/gpt-4o' needs OPENAI_API_KEY",
    );
    expect(missingSetup(choice("openai/gpt-4o"), { OPENAI_API_KEY: "k" })).toBeUndefined();
    expect(missingSetup(choice("openai/x"), { OPENAI_BASE_URL: "http://vllm/v1" })).toBeUndefined();
    expect(missingSetup(choice("ollama/llama3.1"), NONE)).toBeUndefined();
    expect(missingSetup(choice("groq/x"), NONE)).toMatch(/GROQ_API_KEY/);
    expect(missingSetup(choice("gemini/x"), { GOOGLE_API_KEY: "k" })).toBeUndefined();
    expect(missingSetup(choice("azure/d"), NONE)).toBe(
      "'azure/d' needs AZURE_API_BASE and AZURE_API_KEY",
    );
    expect(missingSetup(choice("offline"), NONE)).toBeUndefined();
  });

  it("defaults and environment bases; Ollama's root URL gets /v1 as LiteLLM's does not", () => {
    expect(endpointFor(provider("ollama"), NONE).baseURL).toBe("http://localhost:11434/v1");
    expect(endpointFor(provider("ollama"), { OLLAMA_API_BASE: "http://gpu:11434" }).baseURL).toBe(
      "http://gpu:11434/v1",
    );
    expect(endpointFor(provider("groq"), { GROQ_API_KEY: "g" })).toMatchObject({
      baseURL: "https://api.groq.com/openai/v1",
      apiKey: "g",
      missing: [],
    });
    expect(endpointFor(provider("openai"), { OPENAI_API_BASE: "not a url" }).problem).toMatch(
      /OPENAI_API_BASE/,
    );
  });

  it("the operator's key never goes to a base_url a crew file chose", () => {
    const vars = { OPENAI_API_KEY: "sk-operator" };
    expect(endpointFor(provider("openai"), vars, "https://evil.example/v1")).toMatchObject({
      baseURL: "https://evil.example/v1",
      apiKey: undefined,
      missing: [],
    });
    expect(endpointFor(provider("openai"), vars, "https://api.openai.com/v1").apiKey).toBe(
      "sk-operator",
    );
    const azure = endpointFor(provider("azure"), { AZURE_API_KEY: "a" }, "https://r.azure.com");
    expect(azure.apiKey).toBeUndefined();
    expect(azure.missing[0]).toMatch(/AZURE_API_KEY, which is sent only/);
  });
});

describe("LLM_OVERRIDE", () => {
  const agent = { llm: "openai/gpt-4o", llm_params: { temperature: 0.1 } };
  it("replaces every agent's model and its crew-file settings", () => {
    expect(chooseModel(agent, { DEFAULT_LLM: "offline", LLM_OVERRIDE: "offline" }, NONE)).toEqual({
      ref: { provider: "offline", model: "offline", id: "offline" },
      params: {},
      source: "LLM_OVERRIDE",
    });
    expect(
      chooseModel(agent, { DEFAULT_LLM: "offline", LLM_OVERRIDE: "gpt-4o-mini" }, NONE).ref.id,
    ).toBe("openai/gpt-4o-mini");
    expect(chooseModel({}, { DEFAULT_LLM: "groq/x" }, NONE)).toMatchObject({
      ref: { id: "groq/x" },
      source: "DEFAULT_LLM",
    });
  });

  it("no missing-key warnings for overridden models; the override's own are said", () => {
    const crew = {
      slug: "c",
      name: "C",
      description: null,
      agents: [{ id: "a", role: "R", goal: "G", backstory: "B", tools: [], apps: [], ...agent }],
      tasks: [],
      inputs: [],
      source: ["/crews/c/crew.yaml"],
    };
    expect(modelWarnings([crew], "/crews", { DEFAULT_LLM: "offline" }, NONE)).toEqual([
      {
        slug: "c",
        file: path.join("c", "crew.yaml"),
        key: "a.llm",
        message: expect.stringMatching(/^'openai\/gpt-4o' needs OPENAI_API_KEY: runs fail/),
      },
    ]);
    expect(
      modelWarnings([crew], "/crews", { DEFAULT_LLM: "offline", LLM_OVERRIDE: "offline" }, NONE),
    ).toEqual([]);
    expect(
      modelWarnings([crew], "/crews", { DEFAULT_LLM: "offline", LLM_OVERRIDE: "groq/x" }, NONE)[0]
        ?.message,
    ).toMatch(/'groq\/x' needs GROQ_API_KEY \(LLM_OVERRIDE\)/);
  });
});

describe("prices for the new names", () => {
  it("normalizes aliases and case; nested and provider-wide prices are found", () => {
    expect(normalizeModelId("Ollama_Chat/Llama3.1")).toBe("ollama/llama3.1");
    expect(priceFor("openrouter/openai/gpt-4o", DEFAULT_MODEL_PRICES)).toEqual({
      input: 2.5,
      output: 10,
    });
    expect(priceFor("ollama/llama3.1:8b", DEFAULT_MODEL_PRICES)).toEqual({ input: 0, output: 0 });
    expect(priceFor("azure/gpt-4o-mini", DEFAULT_MODEL_PRICES)?.input).toBe(0.15);
    expect(priceFor("azure/team-deploy", { "azure/team-deploy": { input: 1, output: 2 } })).toEqual(
      { input: 1, output: 2 },
    );
    expect(priceFor("groq/unknown-model", DEFAULT_MODEL_PRICES)).toBeUndefined();
    expect(
      estimateCost(
        [{ model: "openai/gpt-4o-mini", input_tokens: 1_000_000, output_tokens: 0 }],
        DEFAULT_MODEL_PRICES,
      ).usd,
    ).toBe(0.15);
  });
});
