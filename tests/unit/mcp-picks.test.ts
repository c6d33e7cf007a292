import { describe, expect, it } from "vitest";
import { parseMcpServers } from "@/lib/crew/mcp-config";
import {
  missingToolWarnings,
  pickedTools,
  pickServers,
  uniqueName,
  unusableWarning,
} from "@/lib/tools/mcp/picks";

// Which MCP servers and tools an agent's `mcps:` picks, and what it is told it goes without.

const servers = parseMcpServers({
  files: { command: "files-server" },
  web: { url: "https://mcp.example.com/mcp" },
});
const tool = (name: string) => ({ name, inputSchema: { type: "object" as const } });

describe("pickServers", () => {
  it("picks a whole server, or the tools named, in the order first named", () => {
    const { picks, warnings } = pickServers(["web/search", "files", "web/fetch"], servers, "a1");
    expect(warnings).toEqual([]);
    expect([...picks.keys()]).toEqual(["web", "files"]);
    expect(picks.get("web")?.only).toEqual(new Set(["search", "fetch"]));
    expect(picks.get("web")?.def.name).toBe("web");
    expect(picks.get("files")?.only).toBeUndefined();
  });

  it("keeps every tool once a server is named whole, before or after a tool of it", () => {
    for (const wanted of [
      ["web", "web/search"],
      ["web/search", "web"],
    ]) {
      expect(pickServers(wanted, servers, "a1").picks.get("web")?.only).toBeUndefined();
    }
  });

  it("warns of a malformed entry and of a server not declared", () => {
    const { picks, warnings } = pickServers(["bad name", "mail/send"], servers, "a1");
    expect(picks.size).toBe(0);
    expect(warnings).toEqual([
      "mcps: 'bad name' is not 'server' or 'server/tool': agent a1 runs without it.",
      "MCP server 'mail' (agent a1's mcps) is not declared (servers are files, web): agent a1 runs without its tools.",
    ]);
  });

  it("says so when no server is declared at all", () => {
    expect(pickServers(["mail"], [], "a1").warnings).toEqual([
      "MCP server 'mail' (agent a1's mcps) is not declared (no MCP servers are declared in the crew's mcp_servers or in Settings → Tools): agent a1 runs without its tools.",
    ]);
  });
});

describe("tools of a picked server", () => {
  const tools = [tool("search"), tool("fetch")];

  it("keeps all, or those named", () => {
    expect(pickedTools(tools, undefined)).toEqual(tools);
    expect(pickedTools(tools, new Set(["fetch", "nope"]))).toEqual([tool("fetch")]);
  });

  it("warns of each named tool the server lacks, listing what it has", () => {
    expect(missingToolWarnings("web", new Set(["fetch", "nope"]), tools, "a1")).toEqual([
      "MCP server 'web' has no tool 'nope': its tools are search, fetch; agent a1 runs without it.",
    ]);
    expect(missingToolWarnings("web", new Set(["x"]), [], "a1")).toEqual([
      "MCP server 'web' has no tool 'x': its tools are (none); agent a1 runs without it.",
    ]);
    expect(missingToolWarnings("web", undefined, [], "a1")).toEqual([]);
  });
});

describe("unusableWarning", () => {
  it("names the server unless the reason already does, without a doubled full stop", () => {
    expect(unusableWarning("web", "connection refused.", "a1")).toBe(
      "MCP server 'web' could not be used: connection refused; agent a1 runs without its tools.",
    );
    expect(unusableWarning("web", "MCP server 'web' timed out", "a1")).toBe(
      "MCP server 'web' timed out; agent a1 runs without its tools.",
    );
  });
});

describe("uniqueName", () => {
  it("makes a model's tool name: allowed characters, at most 64, numbered when taken", () => {
    const taken = new Set<string>();
    expect(uniqueName("web_search.v2", taken)).toBe("web_search_v2");
    expect(uniqueName("web_search.v2", taken)).toBe("web_search_v2_2");
    const long = "x".repeat(70);
    expect(uniqueName(long, taken)).toBe("x".repeat(64));
    expect(uniqueName(long, taken)).toBe(`${"x".repeat(62)}_2`);
  });
});
