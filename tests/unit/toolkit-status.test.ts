import { describe, expect, it } from "vitest";
import { type Env, env } from "@/lib/config/env";
import { toolkitStatus } from "@/lib/tools/builtin/toolkit-status";

const base = env();
const search = (e: Partial<Env>) =>
  toolkitStatus({ ...base, ...e }).find((t) => t.name === "web_search");

describe("Settings → Tools: the built-in tools as configured", () => {
  it("lists every tool of the catalog, with CrewAI's names and what writes", () => {
    const tools = toolkitStatus(base);
    expect(tools.map((t) => t.name)).toEqual([
      "current_date",
      "word_count",
      "scrape_website",
      "web_search",
      "read_file",
      "write_file",
      "list_directory",
    ]);
    expect(tools.filter((t) => t.writes).map((t) => t.name)).toEqual(["write_file"]);
    expect(tools.find((t) => t.name === "read_file")?.aliases).toEqual(["FileReadTool"]);
  });

  it("says what web search still needs, and which provider it uses once set", () => {
    expect(search({ SEARCH_PROVIDER: undefined })).toMatchObject({ ready: false });
    expect(search({ SEARCH_PROVIDER: undefined })?.note).toContain("SEARCH_PROVIDER");
    expect(search({ SEARCH_PROVIDER: "brave", SEARCH_API_KEY: undefined })?.note).toContain(
      "SEARCH_API_KEY",
    );
    expect(search({ SEARCH_PROVIDER: "searxng", SEARCH_URL: undefined })).toMatchObject({
      ready: false,
    });
    expect(search({ SEARCH_PROVIDER: "serper", SEARCH_API_KEY: "k" })).toMatchObject({
      ready: true,
      note: "Through serper",
    });
  });

  it("names the private networks pages may reach, when some are allowed", () => {
    const scrape = (n: string) =>
      toolkitStatus({ ...base, TOOL_ALLOWED_NETWORKS: n }).find((t) => t.name === "scrape_website");
    expect(scrape("")?.note).toContain("Public addresses only");
    expect(scrape("10.1.0.0/16")?.note).toBe("Public addresses, and 10.1.0.0/16");
  });
});
