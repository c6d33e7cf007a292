import { describe, expect, it } from "vitest";
import { buildTrace } from "@/components/run/trace-model";
import type { ExecutionEvent } from "@/lib/contract/status";
import { normalise, search } from "@/lib/tools/builtin/web-search";

// env() is read lazily: a SearXNG server on loopback, which nothing allows here.
process.env.SEARCH_PROVIDER = "searxng";
process.env.SEARCH_URL = "http://127.0.0.1:9/searx";
process.env.SEARCH_API_KEY = "searx-secret-0123456789";
delete process.env.TOOL_ALLOWED_NETWORKS;

describe("web_search", () => {
  it("goes through the address guard: a provider on a private address is refused", async () => {
    const r = await search("tides", 5);
    expect(r).toEqual({
      query: "tides",
      error:
        "searxng: refused: 127.0.0.1 is a loopback address (list its network in TOOL_ALLOWED_NETWORKS to allow it)",
    });
  });

  it.each([
    [
      "serper" as const,
      { organic: [{ title: "A", link: "https://a.example/", snippet: "a" }, { title: "no link" }] },
    ],
    ["tavily" as const, { results: [{ title: "A", url: "https://a.example/", content: "a" }] }],
    [
      "brave" as const,
      {
        web: {
          results: [{ title: "A", url: "https://a.example/", description: "<strong>a</strong>" }],
        },
      },
    ],
    ["searxng" as const, { results: [{ title: "A", url: "https://a.example/", content: "a" }] }],
  ])(
    "reads %s's answer as {title, url, snippet}, dropping items without an address",
    (provider, body) => {
      expect(normalise(provider, body, 5)).toEqual([
        { title: "A", url: "https://a.example/", snippet: "a" },
      ]);
    },
  );

  it("takes an answer with nothing in it as no results", () => {
    expect(normalise("brave", { web: null }, 5)).toEqual([]);
    expect(normalise("serper", "nonsense", 5)).toEqual([]);
  });
});

describe("the run page's files", () => {
  it("lists the workspace files write_file kept, with the task that wrote them", () => {
    const at = (seq: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString();
    const artifact = {
      name: "workspace/plan.md",
      bytes: 12,
      content_type: "text/markdown; charset=utf-8",
    };
    const events: ExecutionEvent[] = [
      {
        seq: 1,
        type: "task_started",
        task_id: "note",
        attempt: 1,
        data: { name: "Note" },
        created_at: at(1),
      },
      {
        seq: 2,
        type: "tool_result",
        task_id: "note",
        attempt: 1,
        data: {
          tool: "write_file",
          call_id: "c1",
          result: { path: "plan.md", written: true, artifact },
        },
        created_at: at(2),
      },
      {
        seq: 3,
        type: "tool_result",
        task_id: "note",
        attempt: 1,
        // Another tool's result saying the same is not a file of the run's.
        data: { tool: "some_mcp_tool", call_id: "c2", result: { artifact: { name: "x" } } },
        created_at: at(3),
      },
    ];
    expect(buildTrace(events, undefined).artifacts).toEqual([
      {
        taskId: "note",
        name: "workspace/plan.md",
        bytes: 12,
        contentType: "text/markdown; charset=utf-8",
      },
    ]);
  });
});
