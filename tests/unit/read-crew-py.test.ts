import { describe, expect, it } from "vitest";
import { readCrewPy } from "@/lib/crew/read-crew-py";

// Patterns modelled on real CrewAI projects (crewAI-examples and `crewai create crew`).

const TEMPLATE = `from crewai import Agent, Crew, Process, Task
from crewai.project import CrewBase, agent, crew, task
from crewai_tools import SerperDevTool

@CrewBase
class LatestAiDevelopmentCrew():
    """LatestAiDevelopment crew"""

    agents_config = 'config/agents.yaml'
    tasks_config = 'config/tasks.yaml'

    @agent
    def researcher(self) -> Agent:
        return Agent(
            config=self.agents_config['researcher'],
            tools=[SerperDevTool()],
            verbose=True
        )

    @agent
    def reporting_analyst(self) -> Agent:
        return Agent(config=self.agents_config['reporting_analyst'], verbose=True)

    @task
    def research_task(self) -> Task:
        return Task(config=self.tasks_config['research_task'], agent=self.researcher())

    @task
    def reporting_task(self) -> Task:
        return Task(
            config=self.tasks_config['reporting_task'],
            agent=self.reporting_analyst(),
            output_file='report.md'
        )

    @crew
    def crew(self) -> Crew:
        return Crew(agents=self.agents, tasks=self.tasks, process=Process.sequential)
`;

// Tabs, double quotes, methods named apart from their config keys, a custom Task class, stacked
// decorators, comments (one of them a stale agent=), and '#' inside strings.
const MARKETING = `from crewai import Agent, Crew, Process, Task
from crewai.project import CrewBase, agent, crew, task
from marketing_posts.reflection import ReflectionTask

@CrewBase
class MarketingPostsCrew():
\t"""MarketingPosts crew # not a comment"""

\t@agent
\tdef analyst(self) -> Agent:
\t\treturn Agent(
\t\t\tconfig=self.agents_config["lead_market_analyst"],  # key differs from the method
\t\t\ttools=[SerperDevTool(), ScrapeWebsiteTool()],
\t\t\tverbose=True,
\t\t\tmemory=False,
\t\t)

\t@agent
\tdef chief_marketing_strategist(self) -> Agent:
\t\treturn Agent(
\t\t\tconfig=self.agents_config["chief_marketing_strategist"],
\t\t)

\t@task
\t@some_other_decorator(retries=2)
\tdef research(self) -> Task:
\t\treturn ReflectionTask(
\t\t\tconfig=self.tasks_config["research_task"],
\t\t\t# agent=self.chief_marketing_strategist(),
\t\t\tagent=self.analyst(),
\t\t\toutput_file="out/#1.md",
\t\t)

\t@task
\tdef project_understanding_task(self) -> Task:
\t\treturn Task(
\t\t\tconfig=self.tasks_config["project_understanding_task"],
\t\t\tagent = self.chief_marketing_strategist()
\t\t)

\t@task
\tdef marketing_strategy_task(self) -> Task:
\t\treturn Task(config=self.tasks_config["marketing_strategy_task"], output_json=MarketStrategy)
`;

describe("readCrewPy", () => {
  it("reads the `crewai create crew` template", () => {
    const py = readCrewPy(TEMPLATE);
    expect(Object.fromEntries(py.agents)).toEqual({
      researcher: "researcher",
      reporting_analyst: "reporting_analyst",
    });
    expect(Object.fromEntries(py.tasks)).toEqual({
      research_task: { kind: "agent", method: "researcher", taskMethod: "research_task" },
      reporting_task: {
        kind: "agent",
        method: "reporting_analyst",
        taskMethod: "reporting_task",
      },
    });
  });

  it("reads tabs, double quotes, renamed methods, custom Task classes and comments", () => {
    const py = readCrewPy(MARKETING);
    expect(py.agents.get("analyst")).toBe("lead_market_analyst");
    expect(py.agents.get("chief_marketing_strategist")).toBe("chief_marketing_strategist");
    expect(py.tasks.get("research_task")).toEqual({
      kind: "agent",
      method: "analyst", // not the commented-out chief_marketing_strategist
      taskMethod: "research",
    });
    expect(py.tasks.get("project_understanding_task")).toMatchObject({
      kind: "agent",
      method: "chief_marketing_strategist",
    });
    expect(py.tasks.get("marketing_strategy_task")).toEqual({
      kind: "none",
      taskMethod: "marketing_strategy_task",
    });
  });

  it("without config=, a method stands for the key of its own name", () => {
    const py = readCrewPy(`
@agent
def writer(self) -> Agent:
    return Agent(role="Writer", goal="Write", backstory="Writes")

@task
def write_task(self) -> Task:
    return Task(description="Write", expected_output="Text", agent=self.writer())
`);
    expect(py.agents.get("writer")).toBe("writer");
    expect(py.tasks.get("write_task")).toMatchObject({ kind: "agent", method: "writer" });
  });

  it("names an agent it cannot follow without running Python", () => {
    const py = readCrewPy(`
@task
def review_task(self) -> Task:
    return Task(config=self.tasks_config['review_task'], agent=self.pick_agent("editor"))

@task
def edit_task(self) -> Task:
    return Task(config=self.tasks_config['edit_task'], agent=EDITOR)
`);
    expect(py.tasks.get("review_task")).toEqual({
      kind: "unreadable",
      expr: 'self.pick_agent("editor")',
      taskMethod: "review_task",
    });
    expect(py.tasks.get("edit_task")).toMatchObject({ kind: "unreadable", expr: "EDITOR" });
  });

  it("a file with no decorated methods reads as empty", () => {
    const py = readCrewPy("print('hello')\n");
    expect(py.agents.size).toBe(0);
    expect(py.tasks.size).toBe(0);
  });
});

describe("readCrewPy: the crew's process and the tasks' flags", () => {
  it("reads Process.hierarchical, manager_llm, max_rpm and literal Task flags", () => {
    const read = readCrewPy(`
@CrewBase
class Managed():
    @agent
    def scout(self) -> Agent:
        return Agent(config=self.agents_config['scout'])

    @task
    def scan(self) -> Task:
        return Task(config=self.tasks_config['scan'], async_execution=True)

    @task
    def report(self) -> Task:
        return Task(config=self.tasks_config['report'], human_input=True)  # reviewed

    @crew
    def crew(self) -> Crew:
        return Crew(
            agents=self.agents,
            tasks=self.tasks,
            process=Process.hierarchical,
            manager_llm="gpt-4o",  # the manager
            max_rpm=30,
        )
`);
    expect(read.crew).toEqual({ process: "hierarchical", manager_llm: "gpt-4o", max_rpm: 30 });
    expect(Object.fromEntries(read.taskFlags)).toEqual({
      scan: { async_execution: true },
      report: { human_input: true },
    });
  });

  it("reads nothing it cannot be sure of", () => {
    const read = readCrewPy(`
    @crew
    def crew(self) -> Crew:
        return Crew(agents=self.agents, tasks=self.tasks, process=self.chosen_process, manager_llm=ChatOpenAI(model="x"))
`);
    expect(read.crew).toEqual({});
  });
});

describe("readCrewPy: a script instead of a @CrewBase class", () => {
  it("reads agents and tasks from assignments", () => {
    const read = readCrewPy(`
agents_config = yaml.safe_load(open("config/agents.yaml"))
spamfilter = Agent(
    config=agents_config["spamfilter"], allow_delegation=False, verbose=True
)
analyst = Agent(config=agents_config["analyst"], verbose=True)

task0 = Task(
    description=tasks_config["task0"]["description"],
    expected_output=tasks_config["task0"]["expected_output"],
    agent=spamfilter,
)
task1 = Task(description=tasks_config["task1"]["description"], agent=analyst)
`);
    expect(Object.fromEntries(read.agents)).toEqual({
      spamfilter: "spamfilter",
      analyst: "analyst",
    });
    expect(read.tasks.get("task0")).toEqual({
      kind: "agent",
      method: "spamfilter",
      taskMethod: "task0",
    });
    expect(read.tasks.get("task1")).toMatchObject({ kind: "agent", method: "analyst" });
  });
});

describe("readCrewPy: tools given in Python", () => {
  it("names them, so the loader can say they are not run", () => {
    const read = readCrewPy(`
    @agent
    def researcher(self) -> Agent:
        return Agent(
            config=self.agents_config['researcher'],
            tools=[SerperDevTool(), self.scrape_tool,
                   FileReadTool(file_path="x")],
        )
`);
    expect(read.agentTools.get("researcher")).toEqual([
      "SerperDevTool",
      "scrape_tool",
      "FileReadTool",
    ]);
  });
});
