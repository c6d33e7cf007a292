import { describe, expect, it } from "vitest";
import type { CrewDef } from "@/lib/crew/schema";
import { pinnedCrews, variantCrew } from "@/lib/experiments/variant-crews";

// An experiment's pinned variants read back from storage: a definition that is not a crew, or a
// cell naming a variant with none, is a plain error naming it — not a TypeError at every step.

const crew: CrewDef = {
  slug: "c",
  name: "C",
  description: null,
  agents: [{ id: "a", role: "r", goal: "g", backstory: "b", tools: [], apps: [] }],
  tasks: [
    {
      id: "t",
      name: "t",
      agent: "a",
      description: "d",
      expected_output: "e",
      human_input: false,
    },
  ],
  inputs: [],
  source: ["crew.yaml"],
};

describe("an experiment's pinned variants", () => {
  it("are read as they were stored, keys in their order", () => {
    const text = JSON.stringify({ ...crew, extra: { kept: true } });
    const defs = pinnedCrews([{ name: "current", definition: text }]);
    expect(JSON.stringify(defs.get("current"))).toBe(text);
  });
  it("say which variant's stored definition is not a crew, and what it lacks", () => {
    const { tasks: _, ...noTasks } = crew;
    const read = () =>
      pinnedCrews([
        { name: "current", definition: JSON.stringify(crew) },
        { name: "cheaper", definition: JSON.stringify(noTasks) },
      ]);
    expect(read).toThrow(
      /^Variant 'cheaper': its stored definition is not a crew definition: .*tasks/,
    );
    expect(read).not.toThrow(TypeError);
  });
  it("say so plainly when a cell names a variant with no stored definition", () => {
    const defs = pinnedCrews([{ name: "current", definition: JSON.stringify(crew) }]);
    expect(variantCrew(defs, "current")).toBe(defs.get("current"));
    expect(() => variantCrew(defs, "cheaper")).toThrow(
      "No stored definition of variant 'cheaper' (the experiment's variants: current).",
    );
    expect(() => variantCrew(new Map(), "x")).toThrow("(the experiment's variants: none)");
  });
});
