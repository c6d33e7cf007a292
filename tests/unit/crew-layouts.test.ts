import path from "node:path";
import { describe, expect, it } from "vitest";
import { type CrewCatalog, loadCrews } from "@/lib/crew/load-crews";
import { crewsDirMaker } from "../support/crews-dir";

// CrewAI's project layouts beyond crew.yaml: tasks whose agent is set in crew.py, the
// `src/<package>/` project, and the JSON-first crew.jsonc + agents/*.jsonc.

const crewsDir = crewsDirMaker("layouts");

function only(catalog: CrewCatalog, slug: string) {
  const crew = catalog.crews.get(slug);
  if (!crew) throw new Error(`crew ${slug} did not load: ${JSON.stringify(catalog.errors)}`);
  return crew;
}
const agentOf = (catalog: CrewCatalog, slug: string) =>
  Object.fromEntries(only(catalog, slug).tasks.map((t) => [t.id, t.agent]));

const AGENTS = `
researcher:
  role: "{topic} researcher"
  goal: Find facts
  backstory: Careful.
reporting_analyst:
  role: Analyst
  goal: Report
  backstory: Clear.
`;
const TASKS = `
research_task:
  description: "Research {topic}."
  expected_output: Facts
reporting_task:
  description: Write the report.
  expected_output: A report
  context: [research_task]
`;
const CREW_PY = `
@CrewBase
class Crew():
    @agent
    def researcher(self) -> Agent:
        return Agent(config=self.agents_config['researcher'], verbose=True)

    @agent
    def analyst(self) -> Agent:
        return Agent(config=self.agents_config["reporting_analyst"])

    @task
    def research_task(self) -> Task:
        return Task(config=self.tasks_config['research_task'], agent=self.researcher())

    @task
    def reporting_task(self) -> Task:
        return Task(
            config=self.tasks_config["reporting_task"],  # the analyst writes it
            agent=self.analyst(),
        )
`;

describe("tasks without agent:", () => {
  it("take it from crew.py beside config/", () => {
    const catalog = loadCrews(
      crewsDir({
        "c/config/agents.yaml": AGENTS,
        "c/config/tasks.yaml": TASKS,
        "c/crew.py": CREW_PY,
      }),
    );
    expect(catalog.errors).toEqual([]);
    expect(agentOf(catalog, "c")).toEqual({
      research_task: "researcher",
      reporting_task: "reporting_analyst",
    });
  });

  it("take it from src/<package>/crew.py in the project `crewai create crew` makes", () => {
    const dir = crewsDir({
      "proj/src/proj_pkg/config/agents.yaml": AGENTS,
      "proj/src/proj_pkg/config/tasks.yaml": TASKS,
      "proj/src/proj_pkg/crew.py": CREW_PY,
      "proj/src/proj_pkg/main.py": "print('run')\n",
      "proj/pyproject.toml": "[project]\nname = 'proj'\n",
    });
    const catalog = loadCrews(dir);
    expect(catalog.errors).toEqual([]);
    expect(agentOf(catalog, "proj")).toEqual({
      research_task: "researcher",
      reporting_task: "reporting_analyst",
    });
    expect(only(catalog, "proj").source).toContain(
      path.join(dir, "proj", "src", "proj_pkg", "crew.py"),
    );
  });

  it("crew.py's agent= wins over tasks.yaml's agent:, which may name the @agent method", () => {
    const tasks = TASKS.replace("  context: [research_task]", "  agent: researcher").replace(
      "  expected_output: Facts",
      "  expected_output: Facts\n  agent: analyst",
    );
    const catalog = loadCrews(
      crewsDir({
        "c/config/agents.yaml": AGENTS,
        "c/config/tasks.yaml": tasks,
        "c/crew.py": CREW_PY,
      }),
    );
    // As in CrewAI, a keyword argument beside config= wins: research_task keeps crew.py's
    // researcher; reporting_task's tasks.yaml names the method analyst() → reporting_analyst.
    expect(agentOf(catalog, "c")).toEqual({
      research_task: "researcher",
      reporting_task: "reporting_analyst",
    });
  });

  it("in a crew of one agent, go to that agent", () => {
    const catalog = loadCrews(
      crewsDir({
        "solo/config/agents.yaml": "writer: { role: W, goal: G, backstory: B }",
        "solo/config/tasks.yaml": "draft: { description: D, expected_output: E }",
      }),
    );
    expect(catalog.errors).toEqual([]);
    expect(agentOf(catalog, "solo")).toEqual({ draft: "writer" });
  });

  it.each<{ name: string; files: Record<string, string>; file: string; reason: string }>([
    {
      name: "no crew.py",
      files: { "c/config/agents.yaml": AGENTS, "c/config/tasks.yaml": TASKS },
      file: "c/config/tasks.yaml",
      reason:
        "Sequential process error: Agent is missing in the task with the following description: Research {topic}. Task 'research_task' has no agent: add `agent: <one of researcher, reporting_analyst>` under research_task in config/tasks.yaml",
    },
    {
      name: "a crew.py whose task sets no agent",
      files: {
        "c/config/agents.yaml": AGENTS,
        "c/config/tasks.yaml": TASKS,
        "c/crew.py": CREW_PY.replace(", agent=self.researcher()", ""),
      },
      file: "c/config/tasks.yaml",
      reason:
        "Sequential process error: Agent is missing in the task with the following description: Research {topic}. Task 'research_task' has no agent (crew.py's research_task() sets no agent): add `agent: <one of researcher, reporting_analyst>` under research_task in config/tasks.yaml, or set agent=self.<agent>() in its @task method in crew.py",
    },
    {
      name: "a crew.py it cannot read",
      files: {
        "c/src/pkg/config/agents.yaml": AGENTS,
        "c/src/pkg/config/tasks.yaml": TASKS,
        "c/src/pkg/crew.py": CREW_PY.replace("agent=self.researcher()", "agent=AGENTS[0]"),
      },
      file: "c/src/pkg/config/tasks.yaml",
      reason:
        "Sequential process error: Agent is missing in the task with the following description: Research {topic}. Task 'research_task' has no agent (src/pkg/crew.py's research_task() sets agent=AGENTS[0], which Crewdeck cannot follow: it reads crew.py without running it): add `agent: <one of researcher, reporting_analyst>` under research_task in src/pkg/config/tasks.yaml, or set agent=self.<agent>() in its @task method in src/pkg/crew.py",
    },
    {
      name: "a crew.py without the task",
      files: {
        "c/config/agents.yaml": AGENTS,
        "c/config/tasks.yaml": TASKS,
        "c/crew.py": CREW_PY.replace("tasks_config['research_task']", "tasks_config['other']"),
      },
      file: "c/config/tasks.yaml",
      reason:
        "Sequential process error: Agent is missing in the task with the following description: Research {topic}. Task 'research_task' has no agent (crew.py has no @task method with config=self.tasks_config['research_task']): add `agent: <one of researcher, reporting_analyst>` under research_task in config/tasks.yaml, or set agent=self.<agent>() in its @task method in crew.py",
    },
  ])("otherwise fail, saying what to add and where: $name", ({ files, file, reason }) => {
    const catalog = loadCrews(crewsDir(files));
    expect(catalog.crews.size).toBe(0);
    expect(catalog.errors).toEqual([
      { slug: "c", file: file.split("/").join(path.sep), key: "research_task.agent", reason },
    ]);
  });

  it("a crew.py naming an agent the crew lacks is an error in crew.py", () => {
    const catalog = loadCrews(
      crewsDir({
        "c/config/agents.yaml": AGENTS,
        "c/config/tasks.yaml": TASKS,
        "c/crew.py": CREW_PY.replace("agent=self.researcher()", "agent=self.ghost()"),
      }),
    );
    expect(catalog.errors).toEqual([
      {
        slug: "c",
        file: path.join("c", "crew.py"),
        key: "research_task.agent",
        reason:
          "task 'research_task': crew.py sets agent=self.ghost(), which is not an agent of this crew (agents: researcher, reporting_analyst)",
      },
    ]);
  });
});

// As `crewai create crew` writes them: comments, trailing commas, settings, defaults for inputs.
const CREW_JSONC = `{
  // Display name for this crew
  "name": "Research crew",
  "agents": ["researcher", "analyst"],
  "tasks": [
    {
      "name": "research_task",
      "description": "Research {topic} for {year}.",
      "expected_output": "Ten bullet points",
      "agent": "researcher",
    },
    {
      "name": "report_task",
      /* the analyst writes it up */
      "description": "Write a report on {topic}.",
      "expected_output": "A report in markdown",
      "agent": "analyst",
      "context": ["research_task"],
      "output_file": "output/report.md",
      "human_input": true,
    },
  ],
  "process": "sequential",
  "verbose": true,
  "memory": false,
  "inputs": { "topic": "AI agents", "year": 2026 },
}
`;
const RESEARCHER = `{
  "role": "Senior Research Specialist for {topic}",
  "goal": "Find comprehensive information about {topic}",
  "backstory": "An experienced researcher.",
  // Replace with the model you use
  "llm": "offline",
  "tools": ["current_date"],
  "settings": { "verbose": true, "allow_delegation": false, },
}`;
const ANALYST = `{
  "role": "Analyst",
  "goal": "Write clear reports",
  "backstory": "Turns notes into reports.",
  "llm": { "provider": "openai", "model": "gpt-4o-mini" },
  "settings": { "tools": ["word_count"] },
}`;

describe("crew.jsonc + agents/*.jsonc", () => {
  const project = (over: Record<string, string> = {}) => ({
    "json-crew/crew.jsonc": CREW_JSONC,
    "json-crew/agents/researcher.jsonc": RESEARCHER,
    "json-crew/agents/analyst.jsonc": ANALYST,
    "json-crew/pyproject.toml": "[tool.crewai]\ntype = 'crew'\n",
    ...over,
  });

  it("loads as the YAML layouts do", () => {
    const dir = crewsDir(project());
    const catalog = loadCrews(dir);
    expect(catalog.errors).toEqual([]);
    const crew = only(catalog, "json-crew");
    expect(crew.name).toBe("Research crew");
    expect(crew.agents).toEqual([
      expect.objectContaining({ id: "researcher", llm: "offline", tools: ["current_date"] }),
      expect.objectContaining({ id: "analyst", llm: "openai/gpt-4o-mini", tools: ["word_count"] }),
    ]);
    expect(crew.tasks).toEqual([
      expect.objectContaining({ id: "research_task", agent: "researcher", human_input: false }),
      expect.objectContaining({
        id: "report_task",
        name: "report_task",
        agent: "analyst",
        context: ["research_task"],
        human_input: true,
      }),
    ]);
    expect(crew.inputs).toEqual(["topic", "year"]);
    expect(crew.input_specs).toEqual([
      expect.objectContaining({ name: "topic", type: "string", default: "AI agents" }),
      expect.objectContaining({ name: "year", type: "number", default: 2026 }),
    ]);
    expect(crew.source).toEqual([
      path.join(dir, "json-crew", "crew.jsonc"),
      path.join(dir, "json-crew", "agents", "researcher.jsonc"),
      path.join(dir, "json-crew", "agents", "analyst.jsonc"),
    ]);
    const warned = catalog.warnings.map((w) => `${w.file} ${w.key}`);
    // process and allow_delegation are honoured; verbose and memory are not.
    expect(warned).toEqual(
      expect.arrayContaining([
        `${path.join("json-crew", "crew.jsonc")} verbose`,
        `${path.join("json-crew", "agents", "researcher.jsonc")} settings.verbose`,
      ]),
    );
    expect(warned.join("\n")).not.toMatch(/process|allow_delegation|output_file/);
    expect(crew.process).toBe("sequential");
  });

  it("reports a syntax error with its line and column", () => {
    const broken = RESEARCHER.replace('"goal"', '"goal" "oops",\n  "x"');
    const catalog = loadCrews(crewsDir(project({ "json-crew/agents/researcher.jsonc": broken })));
    expect(catalog.errors).toEqual([
      {
        slug: "json-crew",
        file: path.join("json-crew", "agents", "researcher.jsonc"),
        key: "",
        reason: "invalid JSONC at line 3, column 10: ColonExpected",
      },
    ]);
  });

  it("names the agent file that is missing", () => {
    const files: Record<string, string> = project();
    delete files["json-crew/agents/analyst.jsonc"];
    const catalog = loadCrews(crewsDir(files));
    expect(catalog.errors).toEqual([
      {
        slug: "json-crew",
        file: path.join("json-crew", "crew.jsonc"),
        key: "agents.1",
        reason: "agent 'analyst' has no file: add agents/analyst.jsonc (role, goal, backstory)",
      },
    ]);
  });

  it("names an unknown tool, the agent and what exists", () => {
    const withSerper = RESEARCHER.replace(
      '["current_date"]',
      '["current_date", "CodeInterpreterTool"]',
    );
    const catalog = loadCrews(
      crewsDir(project({ "json-crew/agents/researcher.jsonc": withSerper })),
    );
    expect(catalog.errors).toEqual([
      {
        slug: "json-crew",
        file: path.join("json-crew", "agents", "researcher.jsonc"),
        key: "tools.1",
        reason: expect.stringMatching(
          /^unknown tool 'CodeInterpreterTool' \(agent researcher\): available tools are current_date, word_count, scrape_website, web_search, read_file, write_file, list_directory \(or CrewAI's .*SerperDevTool.*\); MCP servers' tools go under mcps:$/,
        ),
      },
    ]);
  });

  it("a task without agent goes to the only agent, else says what to add", () => {
    const noAgent = CREW_JSONC.replace('"agent": "researcher",', "");
    const two = loadCrews(crewsDir(project({ "json-crew/crew.jsonc": noAgent })));
    expect(two.errors).toEqual([
      {
        slug: "json-crew",
        file: path.join("json-crew", "crew.jsonc"),
        key: "tasks.0.agent",
        reason:
          "Sequential process error: Agent is missing in the task with the following description: Research {topic} for {year}. Task 'research_task' has no agent: add \"agent\": \"<one of researcher, analyst>\" to the task named 'research_task' in crew.jsonc",
      },
    ]);
    const solo = noAgent
      .replace('["researcher", "analyst"]', '["researcher"]')
      .replace('"agent": "analyst",', "");
    const one = loadCrews(crewsDir(project({ "json-crew/crew.jsonc": solo })));
    expect(one.errors).toEqual([]);
    expect(agentOf(one, "json-crew")).toEqual({
      research_task: "researcher",
      report_task: "researcher",
    });
  });
});

describe("unknown tools in the YAML layouts", () => {
  it("name the tool, the agent and what exists (CrewAI layout)", () => {
    const catalog = loadCrews(
      crewsDir({
        "c/config/agents.yaml":
          "researcher: { role: R, goal: G, backstory: B, tools: [CodeInterpreterTool] }",
        "c/config/tasks.yaml": "t: { description: D, expected_output: E }",
      }),
    );
    expect(catalog.errors).toEqual([
      {
        slug: "c",
        file: path.join("c", "config", "agents.yaml"),
        key: "researcher.tools.0",
        reason: expect.stringMatching(
          /^unknown tool 'CodeInterpreterTool' \(agent researcher\): available tools are current_date, word_count, scrape_website, web_search, read_file, write_file, list_directory \(or CrewAI's .*SerperDevTool.*\); MCP servers' tools go under mcps:$/,
        ),
      },
    ]);
  });
});
