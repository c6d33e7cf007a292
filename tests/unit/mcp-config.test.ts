// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${env:…} and ${secret:…} are the syntax under test
import { describe, expect, it } from "vitest";
import { loadCrews } from "@/lib/crew/load-crews";
import {
  clearSecretParams,
  McpConfigError,
  mergeServers,
  parseMcpRef,
  parseMcpServers,
  parseMcpUrl,
} from "@/lib/crew/mcp-config";
import { redact, redactDeep } from "@/lib/tools/mcp/redact";
import { resolveServer, secretForms } from "@/lib/tools/mcp/resolve";
import { toModelResult } from "@/lib/tools/mcp/result";
import { crewsDirMaker } from "../support/crews-dir";

// MCP servers as crews and Settings declare them: the shape, the names, credentials only by
// reference, references filled in and blotted out again wherever text is shown.

const crewsDir = crewsDirMaker("mcp");

const fails = (value: unknown) => {
  try {
    parseMcpServers(value);
  } catch (err) {
    if (err instanceof McpConfigError) return { key: err.key, message: err.message };
    throw err;
  }
  throw new Error("parsed");
};

describe("parseMcpServers", () => {
  it("reads stdio and Streamable HTTP servers, with defaults", () => {
    expect(
      parseMcpServers({
        fs: { command: "npx", args: ["-y", "server"], env: { ROOT: "/data" } },
        remote: {
          url: "https://mcp.example.com/mcp",
          headers: { Authorization: "Bearer ${env:TOKEN}" },
          timeout_seconds: 5,
          requires_approval: "writes",
        },
        by_env: { url: "${env:MCP_URL}" },
      }),
    ).toEqual([
      { name: "fs", command: "npx", args: ["-y", "server"], env: { ROOT: "/data" } },
      {
        name: "remote",
        url: "https://mcp.example.com/mcp",
        headers: { Authorization: "Bearer ${env:TOKEN}" },
        timeout_seconds: 5,
        requires_approval: "writes",
      },
      { name: "by_env", url: "${env:MCP_URL}", headers: {} },
    ]);
    expect(parseMcpServers(undefined)).toEqual([]);
  });

  it.each([
    [
      { gh: { url: "https://x.example/mcp", headers: { Authorization: "Bearer abc" } } },
      "gh.headers.Authorization",
      /never in clear/,
    ],
    [{ db: { command: "db-mcp", env: { DB_PASSWORD: "hunter2" } } }, "db.env.DB_PASSWORD", /clear/],
    [{ s: { command: "x", env: { OPENAI_API_KEY: "sk-1" } } }, "s.env.OPENAI_API_KEY", /clear/],
    [{ s: { url: "https://x.example", headers: { Cookie: "a=b" } } }, "s.headers.Cookie", /clear/],
    [{ "bad name": { command: "x" } }, "bad name", /letters, digits/],
    [{ s: { url: "not a url" } }, "s.url", /http\(s\) URL/],
    [{ s: { command: "x", unknown: 1 } }, "s", /unknown|Unrecognized/i],
    [{ s: { args: [] } }, "s.command", /./],
    [[], "", /maps server names/],
  ])("refuses %j at %s", (value, key, message) => {
    const err = fails(value);
    expect(err.key).toBe(key);
    expect(err.message).toMatch(message);
  });

  it("takes credentials by reference, with text around them", () => {
    const [s] = parseMcpServers({
      s: { command: "x", env: { API_KEY: "${secret:KEY}", TOKEN: "pre-${env:T}" } },
    });
    expect(s).toMatchObject({ env: { API_KEY: "${secret:KEY}", TOKEN: "pre-${env:T}" } });
  });
});

describe("references", () => {
  const [server] = parseMcpServers({
    s: {
      url: "https://x.example/${env:TENANT}/mcp",
      headers: { Authorization: "Bearer ${secret:TOKEN}" },
    },
  });
  it("are filled in from the environment and saved secrets, and remembered for redaction", () => {
    const r = resolveServer(server as never, {
      env: { TENANT: "acme" },
      secrets: new Map([["TOKEN", "tok-123456"]]),
    });
    expect(r.server).toMatchObject({
      url: "https://x.example/acme/mcp",
      headers: { Authorization: "Bearer tok-123456" },
    });
    // The 10-character value with its encoded forms; the 4-character one as it is, only.
    expect(r.secrets).toContain("tok-123456");
    expect(r.secrets).toContain("654321-kot");
    expect(r.secrets.filter((s) => /acme/i.test(s) || s === "emca")).toEqual(["acme"]);
    expect(redact("sent Bearer tok-123456 to acme", r.secrets)).toBe(
      "sent Bearer [redacted] to [redacted]",
    );
    expect(redactDeep({ a: ["tok-123456"] }, r.secrets)).toEqual({ a: ["[redacted]"] });
  });
  it("are redacted in the forms a tool echoes them in, not only as they are", () => {
    const secret = "s3cr+t/Value?x";
    const forms = secretForms([secret]);
    const b64 = Buffer.from(secret).toString("base64");
    const echoed = [
      secret,
      secret.toUpperCase(),
      secret.toLowerCase(),
      [...secret].reverse().join(""),
      b64,
      b64.replace(/=+$/, ""),
      Buffer.from(secret).toString("base64url"),
      Buffer.from(secret).toString("hex"),
      Buffer.from(secret).toString("hex").toUpperCase(),
      encodeURIComponent(secret),
      JSON.stringify(`say "${secret}"`),
    ];
    for (const text of echoed) {
      const out = redact(`before ${text} after`, forms);
      expect(out, text).toContain("[redacted]");
      expect(out, text).toMatch(/^before .*after$/);
    }
    // Inside a longer encoded text, at each of the three byte alignments (HTTP Basic's user:pass).
    for (const prefix of ["u:", "us:", "use:"]) {
      const basic = Buffer.from(`${prefix}${secret}`).toString("base64");
      expect(redact(basic, forms), prefix).toContain("[redacted]");
    }
    // JSON-escaped: a value with a quote or backslash as it reads inside a JSON text.
    const quoted = 'pa"ss\\word';
    expect(redact(JSON.stringify({ v: quoted }), secretForms([quoted]))).toBe('{"v":"[redacted]"}');
  });

  it("short values are not redacted wildly: under 4 characters never, under 6 only as they are", () => {
    expect(secretForms(["abc"])).toEqual([]);
    expect(secretForms(["abcde"])).toEqual(["abcde"]);
    expect(redact("ABCDE edcba YWJjZGU", secretForms(["abcde"]))).toBe("ABCDE edcba YWJjZGU");
  });

  it("that are missing fail naming the server and what is missing, never a value", () => {
    expect(() => resolveServer(server as never, { env: {}, secrets: new Map() })).toThrow(
      "MCP server 's' needs environment variable TENANT, secret TOKEN, which are not set (secrets are saved in Settings → Tools)",
    );
  });
});

describe("mcps entries and merging", () => {
  it("parses server, server/tool and CrewAI's server#tool", () => {
    expect(parseMcpRef("fs")).toEqual({ server: "fs" });
    expect(parseMcpRef("fs/read_file")).toEqual({ server: "fs", tool: "read_file" });
    expect(parseMcpRef("fs#read_file")).toEqual({ server: "fs", tool: "read_file" });
    expect(parseMcpRef("https://x.example/mcp")).toBeUndefined();
    expect(parseMcpRef("fs/")).toBeUndefined();
    expect(parseMcpRef("fs#")).toBeUndefined();
  });
  it("reads CrewAI's URL entries, and finds credentials written in clear in their query", () => {
    expect(parseMcpUrl("https://mcp.exa.ai/mcp?profile=r#web_search_exa")).toEqual({
      url: "https://mcp.exa.ai/mcp?profile=r",
      tool: "web_search_exa",
    });
    expect(parseMcpUrl("everything")).toBeUndefined();
    expect(clearSecretParams("https://x.example/mcp?api_key=abc&profile=r")).toEqual(["api_key"]);
    expect(clearSecretParams("https://x.example/mcp?api_key=${env:EXA}&profile=r")).toEqual([]);
    expect(clearSecretParams("https://x.example/mcp?token=%zz")).toEqual(["token"]);
  });
  it("puts deployment servers under the crew's, which win on a clash", () => {
    const crew = parseMcpServers({ a: { command: "crew-a" } });
    const deployment = parseMcpServers({ a: { command: "dep-a" }, b: { command: "dep-b" } });
    const { servers, shadowed } = mergeServers(crew, deployment);
    expect(servers.map((s) => ("command" in s ? s.command : s.url))).toEqual(["crew-a", "dep-b"]);
    expect(shadowed).toEqual(["a"]);
  });
});

describe("tool results for the model", () => {
  it("joins text, describes images and resources, wraps errors", () => {
    expect(
      toModelResult({
        content: [
          { type: "text", text: "one" },
          { type: "image", data: "AAAA", mimeType: "image/png" },
          { type: "resource", resource: { uri: "file:///a", text: "inside" } },
          { type: "resource_link", uri: "file:///b", name: "b" },
        ],
      }),
    ).toBe("one\n[image: image/png, 3 bytes, not shown]\ninside\n[link: file:///b]");
    expect(toModelResult({ content: [{ type: "text", text: "nope" }], isError: true })).toEqual({
      error: "nope",
    });
  });
});

describe("loading crews with MCP servers", () => {
  const agent = (mcps: string) => `
agents:
  a:
    role: R
    goal: G
    backstory: B
    mcps: ${mcps}
tasks:
  t:
    description: D
    expected_output: O
    agent: a
`;
  it("keeps the servers in the crew, and warns about servers it does not declare", () => {
    const dir = crewsDir({
      "c/crew.yaml": `mcp_servers:\n  fs:\n    command: node\n    args: [x.js]\n${agent("[fs/read, other]")}`,
    });
    const catalog = loadCrews(dir);
    expect(catalog.errors).toEqual([]);
    expect(catalog.crews.get("c")?.mcp_servers).toEqual([
      { name: "fs", command: "node", args: ["x.js"], env: {} },
    ]);
    expect(catalog.warnings).toContainEqual(
      expect.objectContaining({
        key: "agents.a.mcps.1",
        message: expect.stringContaining("'other' is not declared in this crew (fs)"),
      }),
    );
  });
  it("fails a credential in clear naming the file and key", () => {
    const dir = crewsDir({
      "c/crew.yaml": `mcp_servers:\n  gh:\n    url: https://x.example/mcp\n    headers:\n      Authorization: Bearer abc\n${agent("[gh]")}`,
    });
    expect(loadCrews(dir).errors).toEqual([
      {
        slug: "c",
        file: "c/crew.yaml",
        key: "mcp_servers.gh.headers.Authorization",
        reason: expect.stringContaining("never in clear"),
      },
    ]);
  });
  it("fails an mcps entry that is neither a server name nor a URL", () => {
    const dir = crewsDir({ "c/crew.yaml": agent("['not a server']") });
    expect(loadCrews(dir).errors[0]).toMatchObject({ key: "agents.a.mcps.0" });
  });
  it("makes CrewAI's URL entries the crew's own HTTP servers, named after their host", () => {
    const dir = crewsDir({
      "c/crew.yaml": agent(
        '["https://mcp.exa.ai/mcp?api_key=${env:EXA_KEY}#web_search_exa", "https://mcp.exa.ai/mcp?api_key=${env:EXA_KEY}", "https://weather.example/mcp"]',
      ),
    });
    const catalog = loadCrews(dir);
    expect(catalog.errors).toEqual([]);
    const crew = catalog.crews.get("c");
    expect(crew?.mcp_servers).toEqual([
      { name: "mcp_exa_ai", url: "https://mcp.exa.ai/mcp?api_key=${env:EXA_KEY}", headers: {} },
      { name: "weather_example", url: "https://weather.example/mcp", headers: {} },
    ]);
    expect(crew?.agents[0]?.mcps).toEqual([
      "mcp_exa_ai/web_search_exa",
      "mcp_exa_ai",
      "weather_example",
    ]);
  });
  it("refuses a URL entry carrying a credential in clear, as CrewAI's examples write it", () => {
    const dir = crewsDir({
      "c/crew.yaml": agent('["https://mcp.exa.ai/mcp?api_key=sk-123#web_search_exa"]'),
    });
    expect(loadCrews(dir).errors).toEqual([
      {
        slug: "c",
        file: "c/crew.yaml",
        key: "agents.a.mcps.0",
        reason: expect.stringContaining("'api_key' looks like a credential: never in clear"),
      },
    ]);
  });
  it("reads config/mcp_servers.yaml in CrewAI's YAML layout, and warns of a command not found", () => {
    const dir = crewsDir({
      "c/config/agents.yaml": "a:\n  role: R\n  goal: G\n  backstory: B\n  mcps: [tools]\n",
      "c/config/tasks.yaml": "t:\n  description: D\n  expected_output: O\n  agent: a\n",
      "c/config/mcp_servers.yaml": "tools:\n  command: no-such-mcp-server-here\n",
    });
    const catalog = loadCrews(dir);
    expect(catalog.errors).toEqual([]);
    expect(catalog.crews.get("c")?.mcp_servers?.[0]).toMatchObject({ name: "tools" });
    expect(catalog.warnings).toContainEqual(
      expect.objectContaining({
        file: "c/config/mcp_servers.yaml",
        key: "tools.command",
        message: expect.stringContaining("not found on PATH"),
      }),
    );
  });
});
