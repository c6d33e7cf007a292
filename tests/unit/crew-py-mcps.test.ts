// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${env:…} is the syntax under test
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadCrews } from "@/lib/crew/load-crews";
import { readCrewPy } from "@/lib/crew/read-crew-py";

// CrewAI's MCP DSL written in crew.py: Agent(..., mcps=[...]) is read as text, never run.
const CREW_PY = `from crewai import Agent, Crew, Task
from crewai.mcp import MCPServerStdio

@CrewBase
class Research:
    @agent
    def researcher(self) -> Agent:
        return Agent(
            config=self.agents_config['researcher'],
            mcps=[
                "https://mcp.exa.ai/mcp?api_key=\${env:EXA_KEY}#web_search_exa",
                'everything#echo',  # a server saved in Settings, one tool
                MCPServerStdio(command="python", args=["local_server.py"], env={"A": "b, c"}),
            ],
        )
`;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-crewpy-mcps-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
for (const [rel, content] of Object.entries({
  "research/config/agents.yaml": "researcher:\n  role: R\n  goal: G\n  backstory: B\n",
  "research/config/tasks.yaml": "t:\n  description: D\n  expected_output: O\n  agent: researcher\n",
  "research/crew.py": CREW_PY,
})) {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), content);
}

describe("crew.py's mcps=[…]", () => {
  it("reads the quoted entries as written and counts the Python objects", () => {
    expect(readCrewPy(CREW_PY).agentMcps.get("researcher")).toEqual({
      refs: ["https://mcp.exa.ai/mcp?api_key=${env:EXA_KEY}#web_search_exa", "everything#echo"],
      other: 1,
    });
  });

  it("gives the agent those servers (a URL becomes the crew's own), and names what it skips", () => {
    const catalog = loadCrews(dir);
    expect(catalog.errors).toEqual([]);
    const crew = catalog.crews.get("research");
    expect(crew?.agents[0]?.mcps).toEqual(["mcp_exa_ai/web_search_exa", "everything#echo"]);
    expect(crew?.mcp_servers).toEqual([
      { name: "mcp_exa_ai", url: "https://mcp.exa.ai/mcp?api_key=${env:EXA_KEY}", headers: {} },
    ]);
    expect(catalog.warnings).toContainEqual(
      expect.objectContaining({
        key: "researcher.mcps",
        message: expect.stringContaining("1 MCP server as Python objects"),
      }),
    );
  });
});
