import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DB_KINDS } from "../support/both-dbs";
import { engineHarness } from "../support/engine-harness";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai";

// A NUL or a lone surrogate from outside — a scraped page, the model's text, its tool calls'
// arguments, ids and names — once made the event insert fail (PostgreSQL: 22P05, jsonb refusing
// lone surrogates) and ended the run. Each run here completes on both databases, with NUL stored
// as "␀" and a lone surrogate as U+FFFD. The model is a loopback server speaking OpenAI's wire
// format; the pages are served on loopback, which TOOL_ALLOWED_NETWORKS opens to scrape_website.

type Call = { id: string; name: string; arguments: string };
type Variant = {
  /** The first turn: tool calls to make, or the final answer itself. */
  first: Call[] | string;
  /** What the stored events and result must show, sanitised. */
  shows: string;
};

const call = (name: string, args: Record<string, unknown>, id = "call_1"): Call[] => [
  { id, name, arguments: JSON.stringify(args) },
];
// The pages' address is known once their server listens: the model writes it in then.
const scrape = (page: string) => call("scrape_website", { url: `PAGES/${page}` });

const VARIANTS: Record<string, Variant> = {
  "page-nul": { first: scrape("nul"), shows: "before␀after" },
  "page-high-surrogate": { first: scrape("high"), shows: "before\ufffdafter" },
  "page-low-surrogate": { first: scrape("low"), shows: "before\ufffdafter" },
  "answer-nul": { first: "final\0answer", shows: "final␀answer" },
  "answer-surrogate": { first: "final\ud800answer", shows: "final\ufffdanswer" },
  "args-value-nul": { first: call("word_count", { text: "one\0two" }), shows: "one␀two" },
  "args-value-surrogate": {
    first: call("word_count", { text: "one\udc00two" }),
    shows: "one\ufffdtwo",
  },
  "args-key-nul": { first: call("word_count", { "ke\0y": "a b" }), shows: "ke␀y" },
  "call-id-nul": { first: call("word_count", { text: "a b" }, "call\0nul"), shows: "call␀nul" },
  "call-id-surrogate": {
    first: call("word_count", { text: "a b" }, "call\ud800x"),
    shows: "call\ufffdx",
  },
  "tool-name-nul": { first: call("word\0count", { text: "a b" }), shows: "word␀count" },
  "tool-name-surrogate": {
    first: call("word\udbffcount", { text: "a b" }),
    shows: "word\ufffdcount",
  },
};

const crewYaml = (model: string) => `
agents:
  reader:
    role: Reader
    goal: Read what it is given
    backstory: Careful.
    llm: openai/${model}
    tools: [scrape_website, word_count]
tasks:
  read:
    description: Read the page and count
    expected_output: A summary
    agent: reader
`;

// The pages: NUL as it comes over the wire; a lone surrogate as UTF-16 sends one (which the
// decoder already turns into U+FFFD, so nothing hostile reaches the engine from a page body).
const utf16 = (unit: number) =>
  Buffer.concat([
    Buffer.from("before", "utf16le"),
    Buffer.from([unit & 0xff, unit >> 8]),
    Buffer.from("after", "utf16le"),
  ]);
const PAGES: Record<string, [string, Buffer]> = {
  "/nul": ["text/plain; charset=utf-8", Buffer.from("before\0after")],
  "/high": ["text/plain; charset=utf-16le", utf16(0xd800)],
  "/low": ["text/plain; charset=utf-16le", utf16(0xdc00)],
};

const pages: { url: string; server?: http.Server } = { url: "" };
let openai: FakeOpenAI;

beforeAll(async () => {
  pages.server = http.createServer((req, res) => {
    const page = PAGES[req.url ?? ""];
    if (!page) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": page[0] }).end(page[1]);
  });
  await new Promise<void>((resolve) => pages.server?.listen(0, "127.0.0.1", resolve));
  pages.url = `http://127.0.0.1:${(pages.server.address() as AddressInfo).port}`;
  openai = await startFakeOpenAI({
    scripted: (body) => {
      const variant = VARIANTS[body.model];
      if (!variant) return undefined;
      const tool = body.messages.find((m) => m.role === "tool");
      if (typeof variant.first === "string")
        return { message: { content: variant.first }, finish: "stop" };
      if (!tool)
        return {
          message: {
            content: null,
            tool_calls: variant.first.map((c) => ({
              id: c.id,
              type: "function",
              function: { name: c.name, arguments: c.arguments.replace("PAGES", pages.url) },
            })),
          },
          finish: "tool_calls",
        };
      return { message: { content: `Tool said: ${tool.content}` }, finish: "stop" };
    },
  });
});
afterAll(async () => {
  await openai?.close();
  pages.server?.closeAllConnections();
  await new Promise((resolve) => pages.server?.close(resolve));
});

describe.each(DB_KINDS)("on the %s database", (database) => {
  const h = engineHarness(
    Object.fromEntries(Object.keys(VARIANTS).map((v) => [v, crewYaml(v)])),
    () => ({
      OPENAI_BASE_URL: openai.url,
      OPENAI_API_KEY: "test-key",
      TOOL_ALLOWED_NETWORKS: "127.0.0.0/8",
    }),
    { database },
  );

  it.each(Object.entries(VARIANTS))(
    "%s: the run completes, showing it sanitised",
    async (slug, v) => {
      const id = await h.kickoff(slug);
      const row = await h.waitFor(id, (r) => r.status === "completed");
      const events = await h.events(id);
      // As JSON, where NUL and lone surrogates would be \u escapes and "␀" and U+FFFD are not.
      const stored = JSON.stringify([row.result, row.tasks, events.map((e) => e.data)]);
      // (Only after an odd number of backslashes: the model may quote an escape as text.)
      expect(stored).not.toMatch(/(?<!\\)(\\\\)*\\u(0000|d[89a-f])/i);
      expect(stored).toContain(v.shows);
      if (slug === "page-nul") {
        const result = events.find((e) => e.type === "tool_result");
        expect(JSON.stringify(result?.data)).toContain("before␀after");
      }
    },
  );
});
