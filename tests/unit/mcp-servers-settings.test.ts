import { describe, expect, it } from "vitest";
import {
  parseServer,
  serverDetail,
  serverKind,
  testResult,
  withoutServer,
} from "@/components/settings/mcp-servers";

// What the MCP servers section decides: whether typed JSON is a server, how a server is shown,
// what Remove saves, and how a connection test reads.
describe("parseServer", () => {
  it("says so when the text is not JSON", () => {
    expect(parseServer("{ command")).toBe("The server is not valid JSON.");
  });
  it.each(["null", "[1]", '"npx"', "3"])("rejects %s, which is not an object", (text) => {
    expect(parseServer(text)).toBe(
      "The server is a JSON object: command and args, or url and headers.",
    );
  });
  it("gives the object typed", () => {
    expect(parseServer('{"command":"npx","args":["-y"]}')).toEqual({
      command: "npx",
      args: ["-y"],
    });
  });
});

describe("serverKind and serverDetail", () => {
  it("shows an HTTP server by its url", () => {
    const def = { url: "https://mcp.example.com/mcp", headers: {} };
    expect(serverKind(def)).toBe("HTTP");
    expect(serverDetail(def)).toBe("https://mcp.example.com/mcp");
  });
  it("shows a stdio server by its command line", () => {
    const def = { command: "npx", args: ["-y", "server-fs", "/srv"] };
    expect(serverKind(def)).toBe("stdio");
    expect(serverDetail(def)).toBe("npx -y server-fs /srv");
  });
  it("shows the command alone when there are no args", () => {
    expect(serverDetail({ command: "mcp-git" })).toBe("mcp-git");
  });
});

describe("withoutServer", () => {
  it("keeps every other server", () => {
    const servers = { a: { command: "a" }, b: { url: "u" } };
    expect(withoutServer(servers, "a")).toEqual({ b: { url: "u" } });
    expect(servers).toHaveProperty("a");
  });
});

describe("testResult", () => {
  it("is nothing before a test", () => {
    expect(testResult(undefined)).toBeUndefined();
  });
  it("lists the tools of a server that answered", () => {
    const tools = [
      { name: "read", description: null, writes: false },
      { name: "write", description: "w", writes: true },
    ];
    expect(testResult({ ok: true, tools, error: null })).toEqual({
      ok: true,
      text: "Connected · tools: read, write",
    });
  });
  it("says (none) for a server with no tools", () => {
    expect(testResult({ ok: true, tools: [], error: null })?.text).toBe(
      "Connected · tools: (none)",
    );
  });
  it("gives the error of a server that did not answer", () => {
    expect(testResult({ ok: false, tools: [], error: "refused" })).toEqual({
      ok: false,
      text: "refused",
    });
  });
});
