import path from "node:path";
import { describe, expect, it } from "vitest";
import { type CrewCatalog, loadCrews } from "@/lib/crew/load-crews";
import { crewsDirMaker } from "../support/crews-dir";

// Each test builds its own CREWS_DIR: { "<slug>/<file>": "<content>" }.
const crewsDir = crewsDirMaker("crews");

const VALID = `
name: Blog post
description: Writes a post.
agents:
  researcher:
    role: "{topic} researcher"
    goal: "Find facts about {topic} for {audience}"
    backstory: "Knows {field}."
    tools: [current_date]
  writer:
    role: Writer
    goal: Write well
    backstory: "Writes for {audience} in {tone}."
    llm: offline
    tools: [word_count]
tasks:
  research:
    description: "Research {topic} as of {date}."
    expected_output: "Findings in {format}"
    agent: researcher
  write:
    name: Write it
    description: "Write about {topic} in {length} words."
    expected_output: "A post"
    agent: writer
    context: [research]
    human_input: true
    max_review_rounds: 2
    timeout_seconds: 30
  edit:
    description: Edit it
    expected_output: "Final {format}"
    agent: writer
`;

// A second crew that always loads, to show one broken crew never hides the others.
const OK_CREW = `
agents:
  a:
    role: R
    goal: G
    backstory: B
tasks:
  t:
    description: D
    expected_output: E
    agent: a
`;

function only(catalog: CrewCatalog, slug: string) {
  const crew = catalog.crews.get(slug);
  if (!crew) throw new Error(`crew ${slug} did not load: ${JSON.stringify(catalog.errors)}`);
  return crew;
}

describe("loadCrews: crew.yaml", () => {
  it("loads a valid crew with its agents, tasks (in file order) and inputs", () => {
    const dir = crewsDir({ "blog/crew.yaml": VALID });
    const catalog = loadCrews(dir);
    expect(catalog.errors).toEqual([]);
    expect(catalog.warnings).toEqual([]);
    const crew = only(catalog, "blog");
    expect(crew.slug).toBe("blog");
    expect(crew.name).toBe("Blog post");
    expect(crew.description).toBe("Writes a post.");
    expect(crew.source).toEqual([path.join(dir, "blog", "crew.yaml")]);
    expect(crew.agents.map((a) => a.id)).toEqual(["researcher", "writer"]);
    expect(crew.agents[0]).toMatchObject({
      id: "researcher",
      role: "{topic} researcher",
      tools: ["current_date"],
      apps: [],
    });
    expect(crew.agents[0]?.llm).toBeUndefined();
    expect(crew.agents[1]).toMatchObject({ id: "writer", llm: "offline", tools: ["word_count"] });
    expect(crew.tasks.map((t) => t.id)).toEqual(["research", "write", "edit"]);
    expect(crew.tasks[0]).toMatchObject({
      id: "research",
      name: "research", // defaults to the id
      agent: "researcher",
      human_input: false,
    });
    expect(crew.tasks[1]).toMatchObject({
      id: "write",
      name: "Write it",
      context: ["research"],
      human_input: true,
      max_review_rounds: 2,
      timeout_seconds: 30,
    });
    // agents' role, goal, backstory first (agent by agent), then tasks' description, expected_output
    expect(crew.inputs).toEqual(["topic", "audience", "field", "tone", "date", "format", "length"]);
  });

  it("keeps tasks in file order, not alphabetical", () => {
    const yaml = `
agents:
  a: { role: R, goal: G, backstory: B }
tasks:
  zeta: { description: "{z}", expected_output: E, agent: a }
  alpha: { description: "{a}", expected_output: E, agent: a }
  mid: { description: "{m}", expected_output: E, agent: a, context: [zeta, alpha] }
`;
    const crew = only(loadCrews(crewsDir({ "c/crew.yaml": yaml })), "c");
    expect(crew.tasks.map((t) => t.id)).toEqual(["zeta", "alpha", "mid"]);
    expect(crew.inputs).toEqual(["z", "a", "m"]);
  });

  it.each([
    ["research-brief", "Research brief"],
    ["my_crew", "My crew"],
    ["a--b__c", "A b c"],
    ["x", "X"],
    ["Crew2", "Crew2"],
  ])("without `name`, folder %s is named %s", (slug, name) => {
    const crew = only(loadCrews(crewsDir({ [`${slug}/crew.yaml`]: OK_CREW })), slug);
    expect(crew.name).toBe(name);
    expect(crew.description).toBeNull();
  });

  it("trims text fields", () => {
    const yaml = `
agents:
  a: { role: "  Editor  ", goal: G, backstory: B }
tasks:
  t: { description: "  Do it  ", expected_output: E, agent: a }
`;
    const crew = only(loadCrews(crewsDir({ "c/crew.yaml": yaml })), "c");
    expect(crew.agents[0]?.role).toBe("Editor");
    expect(crew.tasks[0]?.description).toBe("Do it");
  });

  it("warns about unknown keys and still loads", () => {
    const yaml = `
version: 2
agents:
  a: { role: R, goal: G, backstory: B, verbose: true }
tasks:
  t: { description: D, expected_output: E, agent: a, callback: notify }
`;
    const catalog = loadCrews(crewsDir({ "c/crew.yaml": yaml }));
    expect(catalog.errors).toEqual([]);
    only(catalog, "c");
    expect(catalog.warnings).toEqual(
      expect.arrayContaining([
        { slug: "c", file: "c/crew.yaml", key: "version", message: "unknown key ignored" },
        { slug: "c", file: "c/crew.yaml", key: "agents.a.verbose", message: "unknown key ignored" },
        {
          slug: "c",
          file: "c/crew.yaml",
          key: "tasks.t.callback",
          message: "unknown key ignored",
        },
      ]),
    );
    expect(catalog.warnings).toHaveLength(3);
  });

  it("skips files and dot-folders at the top level", () => {
    const dir = crewsDir({
      "README.md": "# crews",
      ".hidden/crew.yaml": "not: [valid",
      "ok/crew.yaml": OK_CREW,
    });
    const catalog = loadCrews(dir);
    expect([...catalog.crews.keys()]).toEqual(["ok"]);
    expect(catalog.errors).toEqual([]);
  });

  it("returns crews sorted by slug", () => {
    const dir = crewsDir({
      "b/crew.yaml": OK_CREW,
      "c/crew.yaml": OK_CREW,
      "a/crew.yaml": OK_CREW,
    });
    expect([...loadCrews(dir).crews.keys()]).toEqual(["a", "b", "c"]);
  });

  it("reports a CREWS_DIR that cannot be read", () => {
    const missing = path.join(crewsDir({}), "does-not-exist");
    const catalog = loadCrews(missing);
    expect(catalog.crews.size).toBe(0);
    expect(catalog.errors).toHaveLength(1);
    expect(catalog.errors[0]).toMatchObject({ slug: "*", key: "" });
    expect(catalog.errors[0]?.reason).toMatch(/cannot read CREWS_DIR/);
  });
});

describe("loadCrews: CrewAI layout (config/agents.yaml + config/tasks.yaml)", () => {
  const AGENTS = `
researcher:
  role: "{topic} Senior Data Researcher"
  goal: "Uncover cutting-edge developments in {topic}"
  backstory: "You're a seasoned researcher."
  verbose: true
  allow_delegation: false
reporting_analyst:
  role: "{topic} Reporting Analyst"
  goal: "Create detailed reports"
  backstory: "You're meticulous, writing for {audience}."
`;
  const TASKS = `
research_task:
  description: "Conduct a thorough research about {topic} in {year}."
  expected_output: "A list with 10 bullet points"
  agent: researcher
reporting_task:
  description: "Expand each topic into a full section."
  expected_output: "A fully fledged report in {format}"
  agent: reporting_analyst
  output_file: report.md
  markdown: true
`;

  it("loads, warning about CrewAI keys it does not use", () => {
    const dir = crewsDir({
      "latest-ai-development/config/agents.yaml": AGENTS,
      "latest-ai-development/config/tasks.yaml": TASKS,
    });
    const catalog = loadCrews(dir);
    expect(catalog.errors).toEqual([]);
    const crew = only(catalog, "latest-ai-development");
    expect(crew.name).toBe("Latest ai development");
    expect(crew.description).toBeNull();
    expect(crew.agents.map((a) => a.id)).toEqual(["researcher", "reporting_analyst"]);
    expect(crew.tasks.map((t) => t.id)).toEqual(["research_task", "reporting_task"]);
    expect(crew.inputs).toEqual(["topic", "audience", "year", "format"]);
    expect(crew.source).toEqual([
      path.join(dir, "latest-ai-development", "config", "agents.yaml"),
      path.join(dir, "latest-ai-development", "config", "tasks.yaml"),
    ]);
    const agentsFile = path.join("latest-ai-development", "config", "agents.yaml");
    const tasksFile = path.join("latest-ai-development", "config", "tasks.yaml");
    const w = (file: string, key: string) => ({
      slug: "latest-ai-development",
      file,
      key,
      message: "unknown key ignored",
    });
    // allow_delegation and output_file (a run's downloadable artifact) are honoured: no warning.
    expect(crew.tasks[1]?.output_file).toBe("report.md");
    expect(catalog.warnings).toHaveLength(2);
    expect(catalog.warnings).toEqual(
      expect.arrayContaining([
        w(agentsFile, "researcher.verbose"),
        w(tasksFile, "reporting_task.markdown"),
      ]),
    );
  });

  it("prefers crew.yaml when both layouts are present", () => {
    const dir = crewsDir({
      "c/crew.yaml": VALID,
      "c/config/agents.yaml": AGENTS,
      "c/config/tasks.yaml": TASKS,
    });
    const crew = only(loadCrews(dir), "c");
    expect(crew.name).toBe("Blog post");
    expect(crew.source).toEqual([path.join(dir, "c", "crew.yaml")]);
  });

  it("needs both files", () => {
    const catalog = loadCrews(
      crewsDir({ "half/config/agents.yaml": AGENTS, "ok/crew.yaml": OK_CREW }),
    );
    expect(catalog.crews.has("half")).toBe(false);
    expect(catalog.crews.has("ok")).toBe(true);
    expect(catalog.errors).toEqual([
      { slug: "half", file: "half", key: "", reason: expect.stringMatching(/no crew\.yaml/) },
    ]);
  });
});

// Broken crews: each is reported with where and why, and the good crew next to it still loads.
type Broken = {
  name: string;
  files: Record<string, string>; // relative to the broken crew's folder
  file: string; // expected, relative to CREWS_DIR (the slug is "broken")
  key: string | RegExp;
  reason: RegExp;
};

const AGENT_A = "  a: { role: R, goal: G, backstory: B }\n";
const TASK_T = "  t: { description: D, expected_output: E, agent: a }\n";

const BROKEN: Broken[] = [
  {
    name: "invalid YAML",
    files: { "crew.yaml": "agents:\n  a: { role: R\ntasks: [" },
    file: "broken/crew.yaml",
    key: "",
    reason: /invalid YAML/,
  },
  {
    name: "invalid YAML in config/tasks.yaml",
    files: {
      "config/agents.yaml": "a: { role: R, goal: G, backstory: B }",
      "config/tasks.yaml": "t: [unclosed",
    },
    file: "broken/config/tasks.yaml",
    key: "",
    reason: /invalid YAML/,
  },
  {
    name: "missing role",
    files: { "crew.yaml": `agents:\n  a: { goal: G, backstory: B }\ntasks:\n${TASK_T}` },
    file: "broken/crew.yaml",
    key: "agents.a.role",
    reason: /role/,
  },
  {
    name: "empty role",
    files: {
      "crew.yaml": `agents:\n  a: { role: "  ", goal: G, backstory: B }\ntasks:\n${TASK_T}`,
    },
    file: "broken/crew.yaml",
    key: "agents.a.role",
    reason: /role must not be empty/,
  },
  {
    name: "missing role (CrewAI layout)",
    files: {
      "config/agents.yaml": "a: { goal: G, backstory: B }",
      "config/tasks.yaml": "t: { description: D, expected_output: E, agent: a }",
    },
    file: "broken/config/agents.yaml",
    key: "a.role",
    reason: /role/,
  },
  {
    name: "no agents",
    files: { "crew.yaml": `agents: {}\ntasks:\n${TASK_T}` },
    file: "broken/crew.yaml",
    key: "agents",
    reason: /at least one agent/,
  },
  {
    name: "task naming an unknown agent",
    files: {
      "crew.yaml": `agents:\n${AGENT_A}tasks:\n  t: { description: D, expected_output: E, agent: ghost }\n`,
    },
    file: "broken/crew.yaml",
    key: /^(tasks\.)?t\.agent$/,
    reason: /ghost/,
  },
  {
    name: "task naming an unknown agent (CrewAI layout)",
    files: {
      "config/agents.yaml": "a: { role: R, goal: G, backstory: B }",
      "config/tasks.yaml": "t: { description: D, expected_output: E, agent: ghost }",
    },
    file: "broken/config/tasks.yaml",
    key: /^(tasks\.)?t\.agent$/,
    reason: /ghost/,
  },
  {
    name: "task with no agent, in a crew of two agents",
    files: {
      "crew.yaml": `agents:\n${AGENT_A}  b: { role: R, goal: G, backstory: B }\ntasks:\n  t: { description: D, expected_output: E }\n`,
    },
    file: "broken/crew.yaml",
    key: "tasks.t.agent",
    reason:
      /^Sequential process error: Agent is missing in the task with the following description: .*\. Task 't' has no agent: add `agent: <one of a, b>` under tasks\.t in crew\.yaml$/,
  },
  {
    name: "context naming a later task",
    files: {
      "crew.yaml": `agents:\n${AGENT_A}tasks:\n  first: { description: D, expected_output: E, agent: a, context: [second] }\n  second: { description: D, expected_output: E, agent: a }\n`,
    },
    file: "broken/crew.yaml",
    key: /^(tasks\.)?first\.context$/,
    reason: /second/,
  },
  {
    name: "context naming an unknown task",
    files: {
      "crew.yaml": `agents:\n${AGENT_A}tasks:\n${TASK_T}  u: { description: D, expected_output: E, agent: a, context: [t, nope] }\n`,
    },
    file: "broken/crew.yaml",
    key: /^(tasks\.)?u\.context$/,
    reason: /nope/,
  },
  {
    name: "context naming the task itself",
    files: {
      "crew.yaml": `agents:\n${AGENT_A}tasks:\n  t: { description: D, expected_output: E, agent: a, context: [t] }\n`,
    },
    file: "broken/crew.yaml",
    key: /^(tasks\.)?t\.context$/,
    reason: /'t'/,
  },
  {
    name: "unknown llm",
    files: {
      "crew.yaml": `agents:\n  a: { role: R, goal: G, backstory: B, llm: foo/bar }\ntasks:\n${TASK_T}`,
    },
    file: "broken/crew.yaml",
    key: /^(agents\.)?a\.llm$/,
    reason: /foo\/bar/,
  },
  {
    name: "llm with a provider but no model",
    files: {
      "crew.yaml": `agents:\n  a: { role: R, goal: G, backstory: B, llm: openai/ }\ntasks:\n${TASK_T}`,
    },
    file: "broken/crew.yaml",
    key: /^(agents\.)?a\.llm$/,
    reason: /openai\//,
  },
  {
    name: "unknown action of a known app",
    files: {
      "crew.yaml": `agents:\n  a: { role: R, goal: G, backstory: B, apps: [tracker/close_issue] }\ntasks:\n${TASK_T}`,
    },
    file: "broken/crew.yaml",
    key: /^(agents\.)?a\.apps$/,
    reason: /unknown action 'close_issue'/,
  },
  {
    name: "unknown app",
    files: {
      "crew.yaml": `agents:\n  a: { role: R, goal: G, backstory: B, apps: [jira/create_issue] }\ntasks:\n${TASK_T}`,
    },
    file: "broken/crew.yaml",
    key: /^(agents\.)?a\.apps$/,
    reason: /jira/,
  },
  {
    name: "unknown tool",
    files: {
      "crew.yaml": `agents:\n  a: { role: R, goal: G, backstory: B, tools: [word_count, sql_query] }\ntasks:\n${TASK_T}`,
    },
    file: "broken/crew.yaml",
    key: "agents.a.tools.1",
    reason:
      /^unknown tool 'sql_query' \(agent a\): available tools are current_date, word_count, scrape_website, web_search, read_file, write_file, list_directory \(or CrewAI's /,
  },
  {
    name: "folder with neither layout",
    files: { "notes.txt": "nothing here", "config/other.yaml": "a: 1" },
    file: "broken",
    key: "",
    reason: /no crew\.yaml, and not both config\/agents\.yaml and config\/tasks\.yaml/,
  },
  {
    name: "a YAML list instead of a map",
    files: { "crew.yaml": "- a\n- b\n" },
    file: "broken/crew.yaml",
    key: "",
    reason: /./,
  },
  {
    name: "an empty crew.yaml",
    files: { "crew.yaml": "" },
    file: "broken/crew.yaml",
    key: "",
    reason: /./,
  },
  {
    name: "an agent id that is not a name",
    files: {
      "crew.yaml": `agents:\n  "1st": { role: R, goal: G, backstory: B }\ntasks:\n${TASK_T}`,
    },
    file: "broken/crew.yaml",
    key: "agents.1st",
    reason: /agent ids are letters, digits/,
  },
];

describe("loadCrews: broken crews are reported, the others still load", () => {
  it.each(BROKEN)("$name", ({ files, file, key, reason }) => {
    const all: Record<string, string> = {
      "aaa-ok/crew.yaml": OK_CREW,
      "zzz-ok/crew.yaml": OK_CREW,
    };
    for (const [rel, content] of Object.entries(files)) all[`broken/${rel}`] = content;
    const catalog = loadCrews(crewsDir(all));
    expect([...catalog.crews.keys()]).toEqual(["aaa-ok", "zzz-ok"]);
    expect(catalog.errors).toHaveLength(1);
    const error = catalog.errors[0];
    expect(error?.slug).toBe("broken");
    expect(error?.file).toBe(file.split("/").join(path.sep));
    if (typeof key === "string") expect(error?.key).toBe(key);
    else expect(error?.key).toMatch(key);
    expect(error?.reason).toMatch(reason);
    expect(error?.reason.length).toBeGreaterThan(0);
  });

  it("a folder name that cannot be a URL slug is an error", () => {
    const catalog = loadCrews(crewsDir({ "bad name/crew.yaml": OK_CREW, "ok/crew.yaml": OK_CREW }));
    expect([...catalog.crews.keys()]).toEqual(["ok"]);
    expect(catalog.errors).toEqual([
      {
        slug: "bad name",
        file: "bad name",
        key: "",
        reason: expect.stringMatching(/folder names/),
      },
    ]);
  });

  it("reports several broken crews at once", () => {
    const catalog = loadCrews(
      crewsDir({
        "one/crew.yaml": "agents: [",
        "two/crew.yaml": `agents:\n  a: { role: R, goal: G, backstory: B, llm: foo/bar }\ntasks:\n${TASK_T}`,
        "three/readme.md": "empty",
        "ok/crew.yaml": OK_CREW,
      }),
    );
    expect([...catalog.crews.keys()]).toEqual(["ok"]);
    expect(catalog.errors.map((e) => e.slug).sort()).toEqual(["one", "three", "two"]);
  });
});

describe("the example crews", () => {
  it("load with inputs topic and audience and no errors", () => {
    const catalog = loadCrews(path.resolve(import.meta.dirname, "../../crews"));
    expect(catalog.errors).toEqual([]);
    expect(catalog.warnings).toEqual([]);
    const crew = only(catalog, "research-brief");
    expect(crew.inputs).toEqual(["topic", "audience"]);
    expect(crew.tasks.map((t) => t.id)).toEqual(["research", "outline", "write"]);
  });
});
