import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadCrews } from "@/lib/crew/load-crews";

// crew.py read with a Python parser: the keyword arguments of Agent(...), Task(...) and Crew(...)
// win over the YAML, as in CrewAI (process_config), and what Crewdeck does not run is a warning
// naming crew.py's line — never a refused crew, never a silent drop.

const AGENTS = `researcher:
  role: Researcher
  goal: Research {topic}
  backstory: Careful.
  llm: openai/gpt-4o-mini
  allow_delegation: true
writer:
  role: Writer
  goal: Write about {topic}
  backstory: Clear.
`;
const TASKS = `research_task:
  description: Research {topic}
  expected_output: Facts
  output_file: from-yaml.md
write_task:
  description: Write about {topic}
  expected_output: A post
`;
const CREW_PY = `from crewai import Agent, Crew, LLM, Process, Task
from crewai.project import CrewBase, agent, crew, task
from crewai_tools import SerperDevTool, ScrapeWebsiteTool

search_tool = SerperDevTool()
local_llm = LLM(model="ollama/llama3.1", base_url="http://localhost:11434", temperature=0.2)

def no_dates(output):
    return (True, output)

@CrewBase
class Blog():
    agents_config = "config/agents.yaml"
    tasks_config = "config/tasks.yaml"
    mcp_server_params = [{"url": "http://localhost:8000/mcp", "transport": "streamable-http"}]

    def scraper(self):
        return ScrapeWebsiteTool()

    @agent
    def researcher(self) -> Agent:
        return Agent(
            config=self.agents_config["researcher"],
            llm=local_llm,
            allow_delegation=False,
            max_iter=7,
            tools=[search_tool, self.scraper()],
            memory=True,
        )

    @agent
    def writer(self) -> Agent:
        return Agent(config=self.agents_config["writer"], llm="anthropic/claude-3-5-haiku-latest",
                     knowledge_sources=[docs])

    @task
    def research_task(self) -> Task:
        return Task(config=self.tasks_config["research_task"], agent=self.researcher(),
                    output_file="research.md", guardrail=no_dates)

    @task
    def write_task(self) -> Task:
        return Task(config=self.tasks_config["write_task"], agent=self.writer(),
                    guardrail="The post must be under 300 words", tools=[SerperDevTool()])

    @crew
    def crew(self) -> Crew:
        boss = Agent(config=self.agents_config["writer"])
        return Crew(agents=self.agents, tasks=self.tasks, process=Process.hierarchical,
                    manager_agent=boss, memory=True)
`;

function load(files: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-crewpy-"));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, "c", name)), { recursive: true });
    fs.writeFileSync(path.join(dir, "c", name), text);
  }
  return loadCrews(dir);
}

describe("crew.py's keyword arguments", () => {
  const catalog = load({
    "config/agents.yaml": AGENTS,
    "config/tasks.yaml": TASKS,
    "crew.py": CREW_PY,
  });
  const crew = catalog.crews.get("c");

  it("load the crew, the keyword arguments winning over the YAML", () => {
    expect(catalog.errors).toEqual([]);
    const researcher = crew?.agents.find((a) => a.id === "researcher");
    // llm held in a variable, as LLM(model=…, base_url=…): wins over agents.yaml's llm.
    expect(researcher?.llm).toBe("ollama/llama3.1");
    expect(researcher?.llm_params).toMatchObject({
      base_url: "http://localhost:11434",
      temperature: 0.2,
    });
    expect(researcher?.allow_delegation).toBe(false);
    expect(researcher?.max_iter).toBe(7);
    // Tools by a variable and by a method call: the CrewAI classes Crewdeck has built in.
    expect(researcher?.tools).toEqual(["web_search", "scrape_website"]);
    expect(crew?.agents.find((a) => a.id === "writer")?.llm).toBe(
      "anthropic/claude-3-5-haiku-latest",
    );
    const research = crew?.tasks.find((t) => t.id === "research_task");
    expect(research?.output_file).toBe("research.md");
    expect(crew?.tasks.find((t) => t.id === "write_task")?.guardrail).toBe(
      "The post must be under 300 words",
    );
    // A task's own tools go to its agent.
    expect(crew?.agents.find((a) => a.id === "writer")?.tools).toContain("web_search");
    // The manager held in a local variable is the writer of agents.yaml.
    expect(crew?.process).toBe("hierarchical");
    expect(crew?.manager?.role).toBe("Writer");
  });

  it("name what Crewdeck does not run, with crew.py's line and what to use instead", () => {
    const fromPy = catalog.warnings.filter((w) => w.file === "c/crew.py");
    const at = (key: string) => fromPy.find((w) => w.key === key);
    expect(at("researcher.memory")).toMatchObject({
      line: 28,
      message: expect.stringContaining("no agent memory"),
    });
    expect(at("writer.knowledge_sources")).toMatchObject({
      line: 34,
      message: expect.stringContaining("MCP server"),
    });
    expect(at("research_task.guardrail")).toMatchObject({
      line: 39,
      message: expect.stringContaining("write the rule as a string guardrail"),
    });
    expect(at("write_task.tools")).toMatchObject({
      message: expect.stringContaining("SerperDevTool goes to agent writer"),
    });
    expect(at("Crew(memory=…)")).toMatchObject({ line: 50 });
    expect(at("mcp_server_params")).toMatchObject({
      line: 15,
      message: expect.stringContaining("config/mcp_servers.yaml"),
    });
  });
});
