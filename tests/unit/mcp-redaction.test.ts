// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${env:…} is the crew file's syntax
import { afterAll, describe, expect, it } from "vitest";
import { closeMcpPool } from "@/lib/tools/mcp/pool";
import { engineHarness } from "../support/engine-harness";

// The real engine and the real MCP reference server (@modelcontextprotocol/server-everything, over
// stdio), given a secret in its environment. The offline model echoes the task's text, which holds
// the secret in the forms a tool commonly passes it on in (spaced out too): the event log shows
// none of them, in the call's arguments or in its result.

const SECRET = "mcp-redact-9d2e7b41c0";
const bytes = Buffer.from(SECRET);
const FORMS = {
  plain: SECRET,
  upper: SECRET.toUpperCase(),
  reversed: [...SECRET].reverse().join(""),
  base64: bytes.toString("base64"),
  base64url: bytes.toString("base64url"),
  hex: bytes.toString("hex"),
  url: encodeURIComponent(`${SECRET}/`),
  basic: Buffer.from(`agent:${SECRET}`).toString("base64"),
  spaced: [...SECRET].join(" "),
};

const engine = engineHarness(
  {
    "mcp-echo": `mcp_servers:
  everything:
    command: node
    args: [node_modules/@modelcontextprotocol/server-everything/dist/index.js, stdio]
    env:
      API_TOKEN: "\${env:MCP_REDACTION_TEST_SECRET}"
agents:
  helper:
    role: Helper
    goal: Pass things on
    backstory: Careful.
    llm: offline
    mcps: [everything/echo]
tasks:
  t:
    description: "Pass on {note}"
    expected_output: "What came back"
    agent: helper
`,
  },
  { MCP_REDACTION_TEST_SECRET: SECRET },
);

afterAll(async () => {
  await closeMcpPool();
});

describe("MCP secrets in the event log", () => {
  it("a tool call's arguments show [redacted] for the server's secret and its encodings", async () => {
    const note = Object.values(FORMS).join(" ");
    const id = await engine.kickoff("mcp-echo", { note });
    await engine.waitFor(id, (r) => r.status === "completed", 60_000);
    const events = await engine.events(id);
    const call = events.find((e) => e.type === "tool_call");
    const result = events.find((e) => e.type === "tool_result");
    expect(call?.data.tool).toBe("everything_echo");
    const shown = JSON.stringify(call?.data.tool_input);
    expect(shown).toContain("[redacted]");
    for (const [form, text] of Object.entries(FORMS)) {
      expect(shown, form).not.toContain(text);
      expect(JSON.stringify(result?.data.result), form).not.toContain(text);
    }
    // Only the secret's forms went: the words around them are still there.
    expect(shown).toMatch(/^\{"message":"Pass on \[redacted\]/);
  });
});
