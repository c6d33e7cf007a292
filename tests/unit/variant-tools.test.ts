import { beforeAll, describe, expect, it } from "vitest";
import { loadCrews } from "@/lib/crew/load-crews";
import type { CrewDef } from "@/lib/crew/schema";
import { AppError } from "@/lib/errors";
import { applyChanges } from "@/lib/experiments/overlay";
import { FIXTURE_CREWS } from "../support/harness";

// A variant changes how a crew works, never what its author let it do: an agent's tools in a
// variant are only tools the crew's file gives that same agent.

let brief: CrewDef;
beforeAll(() => {
  brief = loadCrews(FIXTURE_CREWS).crews.get("brief") as CrewDef;
});

function problems(fn: () => unknown) {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) {
      expect(err.status).toBe(422);
      return err.details.errors;
    }
    throw err;
  }
  throw new Error("expected a refusal");
}

describe("a variant's tools", () => {
  it("refuses a built-in tool the crew does not give that agent, naming the field", () => {
    // The researcher has no tools; the writer has word_count.
    expect(
      problems(() =>
        applyChanges(brief, {
          agents: {
            researcher: { tools: ["word_count"] },
            writer: { tools: ["word_count", "ScrapeWebsiteTool", "no_such_tool"] },
          },
        }),
      ),
    ).toEqual([
      {
        path: "changes.agents.researcher.tools.0",
        message:
          "the crew does not give agent 'researcher' the tool 'word_count' (its tools: none): a variant may only keep or drop an agent's own tools",
      },
      {
        path: "changes.agents.writer.tools.1",
        message:
          "the crew does not give agent 'writer' the tool 'scrape_website' (its tools: word_count): a variant may only keep or drop an agent's own tools",
      },
      {
        path: "changes.agents.writer.tools.2",
        message: expect.stringMatching(/^unknown tool 'no_such_tool' \(tools: current_date, /),
      },
    ]);
  });

  it("keeps or drops the agent's own tools, by their names or CrewAI's", () => {
    const scraping: CrewDef = {
      ...brief,
      agents: brief.agents.map((a) =>
        a.id === "writer" ? { ...a, tools: ["word_count", "scrape_website"] } : a,
      ),
    };
    const kept = applyChanges(scraping, { agents: { writer: { tools: ["ScrapeWebsiteTool"] } } });
    expect(kept.agents.find((a) => a.id === "writer")?.tools).toEqual(["scrape_website"]);
    const dropped = applyChanges(brief, { agents: { writer: { tools: [] } } });
    expect(dropped.agents.find((a) => a.id === "writer")?.tools).toEqual([]);
  });
});
