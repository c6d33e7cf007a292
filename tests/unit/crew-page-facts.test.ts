import { describe, expect, it } from "vitest";
import {
  agentAsks,
  agentToolNames,
  approvalRuleText,
  fileWarnings,
  kickoffCurl,
  modelText,
  plural,
  setupProblems,
} from "@/components/crews/crew-page-facts";

// What a crew's page says about the crew: warnings, setup, the curl, models and tools.
describe("a crew page's facts", () => {
  it("counts in words", () => {
    expect([plural(1, "task"), plural(2, "task"), plural(0, "agent")]).toEqual([
      "1 task",
      "2 tasks",
      "0 agents",
    ]);
  });

  it("lists the crew's own file warnings, leaving a missing key to the form", () => {
    const w = (slug: string, message: string) => ({ slug, file: "crew.yaml", key: "k", message });
    const warnings = [
      w("news", "unknown field"),
      w("other", "unknown field"),
      w("news", "OPENAI_API_KEY is not set: runs fail until it is set"),
    ];
    expect(fileWarnings(warnings, "news")).toEqual([warnings[0]]);
  });

  it("says once what a model lacks, for the crew's and its flow's agents", () => {
    const settings = { DEFAULT_LLM: "openai/gpt-4o-mini" };
    const agents = [{ llm: "openai/gpt-4o" }, { llm: "offline" }, { llm: "openai/gpt-4o" }];
    const flow = { crews: { inner: { agents: [{}] } } };
    expect(setupProblems({ agents, flow }, settings, {})).toEqual([
      "'openai/gpt-4o' needs OPENAI_API_KEY: set it in Crewdeck's environment and restart (or LLM_OVERRIDE=offline to try it without a key).",
      "'openai/gpt-4o-mini' needs OPENAI_API_KEY: set it in Crewdeck's environment and restart (or LLM_OVERRIDE=offline to try it without a key).",
    ]);
    expect(setupProblems({ agents, flow }, settings, { OPENAI_API_KEY: "k" })).toEqual([]);
    expect(setupProblems({ agents }, { ...settings, LLM_OVERRIDE: "offline" }, {})).toEqual([]);
  });

  it("writes the curl that starts the crew", () => {
    expect(kickoffCurl("news", ["topic"])).toBe(
      [
        'curl -X POST "$CREWDECK_URL/api/crews/news/kickoff"',
        '  -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json"',
        `  -d '{"inputs":{"topic":"…"}}'`,
      ].join(" \\\n"),
    );
  });

  it("says where an agent's model comes from when not its crew file", () => {
    expect(modelText("offline", "openai/gpt-4o", "offline")).toBe(
      "offline (LLM_OVERRIDE; crew file: openai/gpt-4o)",
    );
    expect(modelText("offline", undefined, "offline")).toBe(
      "offline (LLM_OVERRIDE; crew file: default)",
    );
    expect(modelText("openai/gpt-4o", "openai/gpt-4o", undefined)).toBe("openai/gpt-4o");
    expect(modelText("openai/gpt-4o-mini", undefined, undefined)).toBe(
      "openai/gpt-4o-mini (default)",
    );
  });

  it("names an agent's tools and the calls that wait for a person", () => {
    const agent = {
      tools: ["search"],
      apps: ["gmail"],
      mcps: ["files/read", "web"],
      requires_approval: ["search"],
    };
    expect(agentToolNames(agent)).toEqual(["search", "gmail actions", "files/read", "web"]);
    expect(
      agentAsks(agent, [
        { name: "files", requires_approval: "writes" },
        { name: "web", requires_approval: true },
        { name: "unused", requires_approval: true },
        { name: "quiet" },
      ]),
    ).toEqual(["search", "files's tools that change something", "every web tool"]);
    expect(agentAsks({ tools: [], apps: [] }, [])).toEqual([]);
    expect(approvalRuleText(true)).toBe("every tool call");
    expect(approvalRuleText("writes")).toBe("calls that change something");
    expect(approvalRuleText(["a", "b"], "s")).toBe("s/a, s/b");
    expect(approvalRuleText(undefined)).toBeNull();
  });
});
