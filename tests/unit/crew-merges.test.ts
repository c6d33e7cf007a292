import { describe, expect, it } from "vitest";
import { readAgentLlm } from "@/lib/crew/agent-llm";
import { declaredInputs } from "@/lib/crew/finish-crew";
import type { InputSpec } from "@/lib/crew/input-schema";
import { joinedMcps, pythonTools } from "@/lib/crew/load-classic-crew";

// What a crew gets when its files and its crew.py both say something: decided on the lists
// alone, no files read.

describe("tools made in crew.py", () => {
  it("join the agent's list after its own, once by catalog name; the rest are named", () => {
    expect(pythonTools(["web_search"], ["SerperDevTool()", "FileReadTool()", "MyTool()"])).toEqual({
      join: ["FileReadTool()"],
      others: ["MyTool()"],
    });
  });
  it("join once when crew.py names the same tool twice", () => {
    expect(pythonTools([], ["FileReadTool()", "FileReadTool"]).join).toEqual(["FileReadTool()"]);
  });
});

describe("MCP servers named in crew.py", () => {
  it("follow the YAML's, each once", () => {
    expect(joinedMcps(["a", "b"], ["b", "c"])).toEqual(["a", "b", "c"]);
  });
});

describe("a crew's declared inputs", () => {
  const spec = (name: string): InputSpec => ({
    name,
    type: "number",
    title: name,
    description: null,
    required: true,
    declared: true,
  });
  it("come first as written, undeclared placeholders after them as strings", () => {
    const got = declaredInputs([spec("b"), spec("a")], ["a", "c", "b"]);
    expect(got.inputs).toEqual(["b", "a", "c"]);
    expect(got.input_specs[2]).toMatchObject({ name: "c", type: "string", declared: false });
    expect(got.unused).toEqual([]);
  });
  it("name those no placeholder uses", () => {
    expect(declaredInputs([spec("a"), spec("z")], ["a"]).unused).toEqual(["z"]);
  });
});

describe("an agent's model parameters", () => {
  it("keep only those written, in one order, base_url standing for api_base", () => {
    const got = readAgentLlm(
      { model: "openai/gpt-4o", seed: 7, stop: "END", temperature: 0.2, api_base: "http://x" },
      {},
    );
    expect(Object.entries(got.llm_params ?? {})).toEqual([
      ["base_url", "http://x"],
      ["temperature", 0.2],
      ["stop", ["END"]],
      ["seed", 7],
    ]);
  });
  it("are absent when none is written", () => {
    expect("llm_params" in readAgentLlm({ model: "openai/gpt-4o" }, {})).toBe(false);
    expect("llm_params" in readAgentLlm("openai/gpt-4o", {})).toBe(false);
  });
});
