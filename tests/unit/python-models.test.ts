import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadCrews } from "@/lib/crew/load-crews";

// `output_json: Report` in tasks.yaml, or `output_pydantic=Report` in crew.py, names a pydantic
// class, as CrewAI's @CrewBase resolves it: read from crew.py, or from the project file it imports
// the class from. Python is read as text, never run.
function project(files: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-pymodels-"));
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(dir, "p", name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
  return loadCrews(dir);
}

const AGENTS = "analyst:\n  role: Analyst\n  goal: Analyse {topic}\n  backstory: Careful.\n";
const REPORT = [
  "from pydantic import BaseModel, Field",
  "class Report(BaseModel):",
  '    title: str = Field(..., description="The title")',
  "    score: int",
  "",
].join("\n");

describe("a class named for structured output", () => {
  it("is read from the module crew.py imports it from (`from .models import Report`)", () => {
    const c = project({
      "src/my_crew/config/agents.yaml": AGENTS,
      "src/my_crew/config/tasks.yaml":
        "report_task:\n  description: Report on {topic}\n  expected_output: A report\n  agent: analyst\n  output_json: Report\n",
      "src/my_crew/crew.py":
        "from crewai.project import CrewBase\nfrom .models import Report\n@CrewBase\nclass MyCrew:\n    pass\n",
      "src/my_crew/models.py": REPORT,
    });
    expect(c.errors).toEqual([]);
    expect(c.warnings).toEqual([]);
    expect(c.crews.get("p")?.tasks[0]?.output_json).toMatchObject({
      type: "object",
      properties: {
        title: { type: "string", description: "The title" },
        score: { type: "integer" },
      },
      required: ["title", "score"],
    });
  });

  it("follows an absolute import inside the project, for crew.py's output_pydantic=", () => {
    const c = project({
      "src/my_crew/config/agents.yaml": AGENTS,
      "src/my_crew/config/tasks.yaml":
        "report_task:\n  description: Report on {topic}\n  expected_output: A report\n  agent: analyst\n",
      "src/my_crew/crew.py": [
        "from crewai import Task",
        "from crewai.project import CrewBase, task",
        "from my_crew.schemas.report import Report as Out",
        "@CrewBase",
        "class MyCrew:",
        "    @task",
        "    def report_task(self) -> Task:",
        "        return Task(config=self.tasks_config['report_task'], output_pydantic=Out)",
        "",
      ].join("\n"),
      "src/my_crew/schemas/report.py": REPORT,
    });
    expect(c.errors).toEqual([]);
    expect(c.crews.get("p")?.tasks[0]?.output_json).toMatchObject({
      properties: { title: { type: "string" } },
    });
  });

  it("is warned about, and the output left unchecked, when the project does not define it", () => {
    const c = project({
      "config/agents.yaml": AGENTS,
      "config/tasks.yaml":
        "report_task:\n  description: Report on {topic}\n  expected_output: A report\n  agent: analyst\n  output_pydantic: Missing\n",
      "crew.py": "from somewhere_else import Missing\n",
    });
    expect(c.errors).toEqual([]);
    expect(c.crews.get("p")?.tasks[0]).not.toHaveProperty("output_json");
    expect(c.warnings).toEqual([
      expect.objectContaining({
        file: "p/config/tasks.yaml",
        key: "report_task.output_pydantic",
        message: expect.stringContaining("names the Python class 'Missing'"),
      }),
    ]);
  });
});
