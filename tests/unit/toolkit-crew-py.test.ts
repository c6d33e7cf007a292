import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadCrews } from "@/lib/crew/load-crews";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-toolkit-crewpy-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(rel: string, content: string) {
  const file = path.join(dir, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

write(
  "research/src/research/config/agents.yaml",
  `researcher:
  role: Researcher
  goal: Find facts
  backstory: Careful.
  tools: [word_count, SerperDevTool]
writer:
  role: Writer
  goal: Write
  backstory: Clear.
`,
);
write(
  "research/src/research/config/tasks.yaml",
  `research:
  description: Research the topic.
  expected_output: Facts.
  agent: researcher
write:
  description: Write it up.
  expected_output: A post.
  agent: writer
`,
);
write(
  "research/src/research/crew.py",
  `from crewai import Agent, Crew, Task
from crewai_tools import SerperDevTool, ScrapeWebsiteTool, CodeInterpreterTool, FileWriterTool

@CrewBase
class Research:
    @agent
    def researcher(self) -> Agent:
        return Agent(config=self.agents_config['researcher'], tools=[SerperDevTool(), ScrapeWebsiteTool(), CodeInterpreterTool()])

    @agent
    def writer(self) -> Agent:
        return Agent(config=self.agents_config['writer'], tools=[FileWriterTool()])
`,
);

describe("crew.py's tools=[…]", () => {
  it("gives agents the built-in tools CrewAI's classes stand for, and warns only about the rest", () => {
    const catalog = loadCrews(dir);
    expect(catalog.errors).toEqual([]);
    const crew = catalog.crews.get("research");
    // agents.yaml's list first; SerperDevTool twice (YAML and Python) is one web_search.
    expect(crew?.agents.map((a) => [a.id, a.tools])).toEqual([
      ["researcher", ["word_count", "web_search", "scrape_website"]],
      ["writer", ["write_file"]],
    ]);
    const about = catalog.warnings.filter((w) => w.key.endsWith(".tools"));
    expect(about.map((w) => [w.key, w.message])).toEqual([
      [
        "researcher.tools",
        expect.stringMatching(
          /^crew\.py gives this agent CodeInterpreterTool, which Crewdeck does not run/,
        ),
      ],
    ]);
  });
});
