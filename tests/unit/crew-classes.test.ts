import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadCrews } from "@/lib/crew/load-crews";

// A @CrewBase class names its YAML files (agents_config, tasks_config), or inherits them; the files
// are found relative to the module that defines it, and several classes serve one crew each.

function load(files: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-classes-"));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, "c", name)), { recursive: true });
    fs.writeFileSync(path.join(dir, "c", name), text);
  }
  return loadCrews(dir);
}

const agents = (id: string) =>
  `${id}:\n  role: ${id}\n  goal: Work on {topic}\n  backstory: Steady.\n`;
const tasks = (id: string, agent: string) =>
  `${id}:\n  description: Do {topic}\n  expected_output: Done\n  agent: ${agent}\n`;
const method = (kind: "agent" | "task", name: string, body: string) =>
  `    @${kind}\n    def ${name}(self):\n        return ${body}\n`;

describe("@CrewBase classes and their files", () => {
  it("finds the files a class names, relative to its module", () => {
    const c = load({
      "src/pkg/crew.py": [
        "@CrewBase",
        "class Research:",
        '    agents_config = "config/agents_research.yaml"',
        '    tasks_config = "tasks/research_tasks.yaml"',
        method("agent", "scout", "Agent(config=self.agents_config['scout'])"),
        method("task", "scan", "Task(config=self.tasks_config['scan'], agent=self.scout())"),
      ].join("\n"),
      "src/pkg/config/agents_research.yaml": agents("scout"),
      "src/pkg/tasks/research_tasks.yaml": tasks("scan", "scout"),
    });
    expect(c.errors).toEqual([]);
    expect(c.crews.get("c")?.tasks.map((t) => [t.id, t.agent])).toEqual([["scan", "scout"]]);
  });

  it("takes them from a base class", () => {
    const c = load({
      "crew.py": [
        "class Base:",
        '    agents_config = "yaml/agents.yaml"',
        '    tasks_config = "yaml/tasks.yaml"',
        "",
        "@CrewBase",
        "class Research(Base):",
        method("agent", "scout", "Agent(config=self.agents_config['scout'])"),
      ].join("\n"),
      "yaml/agents.yaml": agents("scout"),
      "yaml/tasks.yaml": tasks("scan", "scout"),
    });
    expect(c.errors).toEqual([]);
    expect(c.crews.get("c")?.agents.map((a) => a.id)).toEqual(["scout"]);
  });

  it("serves several classes as one crew each, each with its own methods", () => {
    const c = load({
      "crews.py": [
        "@CrewBase",
        "class ResearchCrew:",
        '    agents_config = "config/research_agents.yaml"',
        '    tasks_config = "config/research_tasks.yaml"',
        method("task", "scan", "Task(config=self.tasks_config['scan'], agent=self.scout())"),
        method("agent", "scout", "Agent(config=self.agents_config['scout'])"),
        "@CrewBase",
        "class WritingCrew:",
        '    agents_config = "config/writing_agents.yaml"',
        '    tasks_config = "config/writing_tasks.yaml"',
        method("task", "draft", "Task(config=self.tasks_config['draft'], agent=self.pen())"),
        method("agent", "pen", "Agent(config=self.agents_config['writer'])"),
      ].join("\n"),
      "config/research_agents.yaml": agents("scout"),
      "config/research_tasks.yaml": tasks("scan", "scout").replace("  agent: scout\n", ""),
      "config/writing_agents.yaml": agents("writer"),
      "config/writing_tasks.yaml": tasks("draft", "writer").replace("  agent: writer\n", ""),
    });
    expect(c.errors).toEqual([]);
    expect([...c.crews.keys()]).toEqual(["c-research-crew", "c-writing-crew"]);
    expect(c.crews.get("c-writing-crew")?.tasks.map((t) => [t.id, t.agent])).toEqual([
      ["draft", "writer"],
    ]);
    expect(c.crews.get("c-research-crew")?.tasks.map((t) => [t.id, t.agent])).toEqual([
      ["scan", "scout"],
    ]);
  });
});
