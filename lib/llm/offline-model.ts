import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import { sleep } from "@/lib/util/sleep";
import { sampleFor } from "./offline-json";
import { judge, revise as reviseForRules } from "./offline-rules";

export const OFFLINE_LABEL = "offline model (deterministic, no network)";

// A deterministic local model: it drives the real agent loop (a thought, a tool call when the
// agent has tools, then an answer built from the task) so Crewdeck runs and is tested with no
// key and no network. Its text says what it is wherever it is shown.
export function createOfflineModel({ delayMs = 0 }: { delayMs?: number } = {}): LanguageModelV3 {
  const generate = async (
    options: LanguageModelV3CallOptions,
  ): Promise<LanguageModelV3GenerateResult> => {
    if (delayMs > 0) await sleep(delayMs, options.abortSignal);
    const content = respond(options);
    const inputTokens = options.prompt.reduce((n, m) => n + wordsIn(m), 0);
    const outputTokens = content.reduce((n, c) => n + ("text" in c ? countWords(c.text) : 0), 0);
    const toolCall = content.some((c) => c.type === "tool-call");
    return {
      content,
      finishReason: {
        unified: toolCall ? "tool-calls" : "stop",
        raw: toolCall ? "tool_calls" : "stop",
      },
      usage: {
        inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: outputTokens, text: outputTokens, reasoning: 0 },
      },
      warnings: [],
    };
  };
  return {
    specificationVersion: "v3",
    provider: "crewdeck",
    modelId: "offline",
    supportedUrls: {},
    doGenerate: generate,
    async doStream(options) {
      const result = await generate(options);
      const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
      result.content.forEach((c, i) => {
        const id = String(i);
        if (c.type === "text")
          parts.push(
            { type: "text-start", id },
            { type: "text-delta", id, delta: c.text },
            { type: "text-end", id },
          );
        else if (c.type === "reasoning")
          parts.push(
            { type: "reasoning-start", id },
            { type: "reasoning-delta", id, delta: c.text },
            { type: "reasoning-end", id },
          );
        else parts.push(c as LanguageModelV3StreamPart);
      });
      parts.push({ type: "finish", usage: result.usage, finishReason: result.finishReason });
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const p of parts) controller.enqueue(p);
            controller.close();
          },
        }),
      };
    },
  };
}

function respond(options: LanguageModelV3CallOptions): LanguageModelV3Content[] {
  const user = promptText(options.prompt, "user");
  const system = promptText(options.prompt, "system");
  const section = sectionsOf(user);
  // Asked to check a guardrail: judge the rules it can read (word limits, words to mention).
  const rule = section("Guardrail");
  const checked = section("Output to check");
  if (rule && checked !== undefined) {
    const verdict = judge(rule, checked);
    return [{ type: "text", text: `${verdict.pass ? "PASS" : "FAIL"}: ${verdict.reason}` }];
  }
  const task = section("Task") ?? user.trim();
  const expected = section("Expected output");
  const context = section("Context");
  const revise = section("Revise it: reviewer feedback");
  const reviewerNotes = section("Reviewer feedback");
  const role = /You are (.+?)\./.exec(system)?.[1] ?? "an agent";
  const toolResults = options.prompt.flatMap((m) => (m.role === "tool" ? m.content : []));
  const tools = (options.tools ?? []).filter((t) => t.type === "function");
  const firstLine = task.split("\n")[0]?.trim() ?? task;

  const results = new Map(
    toolResults.flatMap((r) =>
      r.type === "tool-result"
        ? [
            [
              r.toolName,
              r.output.type === "json" || r.output.type === "text" ? r.output.value : r.output,
            ] as const,
          ]
        : [],
    ),
  );
  // Told its steps are used up (max_iter): no more tools, answer now.
  const mustAnswer = /^# Final answer now$/m.test(user);
  const next = mustAnswer
    ? undefined
    : (nextCall(
        tools.map((t) => ({ name: t.name, inputSchema: t.inputSchema })),
        results,
        { task, expected, firstLine },
      ) ?? delegation(tools, results, { task, expected, context }));
  if (next) {
    return [
      {
        type: "reasoning",
        text: `As ${role}, I will use ${next.name} before answering: ${firstLine}`,
      },
      {
        type: "tool-call",
        toolCallId: `offline-${toolResults.length + 1}`,
        toolName: next.name,
        input: JSON.stringify(next.args),
      },
    ];
  }

  const fix = section("Fix these problems");
  const schema = schemaIn(section("Output format"));
  if (schema !== undefined) {
    const doc = sampleFor(schema, firstLine);
    // It labels its output, as everywhere, unless a failed check said the label is not allowed.
    const labelled =
      isPlainObject(doc) && !fix?.includes(`'${LABEL_KEY}'`)
        ? { ...doc, [LABEL_KEY]: `Written by the ${OFFLINE_LABEL}.` }
        : doc;
    return [
      {
        type: "reasoning",
        text: `As ${role}, I answer in the JSON the task asks for: ${firstLine}`,
      },
      { type: "text", text: `\`\`\`json\n${JSON.stringify(labelled, null, 2)}\n\`\`\`` },
    ];
  }
  if (fix) {
    return [
      { type: "reasoning", text: `As ${role}, I revise my answer for: ${fix.split("\n")[0]}` },
      { type: "text", text: reviseForRules(firstLine, fix) },
    ];
  }
  const handedBack = results.get(DELEGATE_TOOL);
  if (typeof handedBack === "string") {
    // A manager (or a delegating agent) answers with the coworker's work, checked.
    return [
      { type: "reasoning", text: `As ${role}, I have checked what my coworker handed back.` },
      {
        type: "text",
        text: `${handedBack}\n\n_Checked by ${role} against the expected output before handing it on._`,
      },
    ];
  }

  const observations = [...results].map(([name, value]) => `- ${name}: ${describeResult(value)}`);
  const answer = [
    `## ${firstLine}`,
    "",
    `_Written by the ${OFFLINE_LABEL}: set DEFAULT_LLM or the agent's \`llm\` for real output._`,
    "",
    `**As:** ${role}`,
    "",
    "**Task**",
    "",
    task,
    ...(expected ? ["", "**Delivers**", "", expected] : []),
    ...(context ? ["", "**Builds on**", "", summarize(context)] : []),
    ...(reviewerNotes ? ["", "**Reviewer notes taken into account**", "", reviewerNotes] : []),
    ...(observations.length ? ["", "**Observations**", "", ...observations] : []),
    ...(revise
      ? ["", "**Revised for this feedback**", "", `> ${revise.replace(/\n/g, "\n> ")}`]
      : []),
  ].join("\n");
  return [
    { type: "reasoning", text: `As ${role}, I have what I need to answer: ${firstLine}` },
    { type: "text", text: answer },
  ];
}

// CrewAI's delegation tools (lib/engine/delegation.ts). The offline model hands the task once to
// the coworker whose role and goal share the most words with it, and never asks questions.
const DELEGATE_TOOL = "delegate_work_to_coworker";
const ASK_TOOL = "ask_question_to_coworker";

function delegation(
  tools: { name: string; description?: string }[],
  results: Map<string, unknown>,
  { task, expected, context }: { task: string; expected?: string; context?: string },
): { name: string; args: Record<string, unknown> } | undefined {
  const tool = tools.find((t) => t.name === DELEGATE_TOOL);
  if (!tool || results.has(DELEGATE_TOOL)) return undefined;
  const words = (s: string) => new Set(s.toLowerCase().match(/[a-z]{4,}/g) ?? []);
  const wanted = words(task);
  const team = [...(tool.description ?? "").matchAll(/^- ([A-Za-z0-9_-]+): (.*)$/gm)];
  let best: { id: string; score: number } | undefined;
  for (const [, id, about] of team) {
    const score = [...words(about ?? "")].filter((w) => wanted.has(w)).length;
    if (id && (!best || score > best.score)) best = { id, score };
  }
  if (!best) return undefined;
  return {
    name: DELEGATE_TOOL,
    args: {
      task: task.slice(0, 20_000),
      context: [expected && `Expected output: ${expected}`, context].filter(Boolean).join("\n\n"),
      coworker: best.id,
    },
  };
}

// The issue-tracker actions the offline model uses, in order: find a team, file an issue in it,
// then a follow-up sub-issue under that issue. Other tools are each called once.
const TRACKER_PLAN = ["search_teams", "create_issue", "create_sub_issue"];
const TRACKER_ACTIONS = new Set([
  ...TRACKER_PLAN,
  "update_issue",
  "get_issue_by_id",
  "get_issue_by_issue_identifier",
  "search_issue",
  "delete_issue",
  "archive_issue",
  "create_project",
  "update_project",
  "get_project_by_id",
  "delete_project",
]);

type Json = Record<string, unknown> | undefined;

function nextCall(
  tools: { name: string; inputSchema: unknown }[],
  results: Map<string, unknown>,
  { task, expected, firstLine }: { task: string; expected?: string; firstLine: string },
): { name: string; args: Record<string, unknown> } | undefined {
  const has = (name: string) => tools.some((t) => t.name === name);
  const plain = tools.find(
    (t) =>
      !TRACKER_ACTIONS.has(t.name) &&
      t.name !== DELEGATE_TOOL &&
      t.name !== ASK_TOOL &&
      !results.has(t.name),
  );
  if (plain) return { name: plain.name, args: argumentsFor(plain.inputSchema, task) };
  const step = TRACKER_PLAN.find((name) => has(name) && !results.has(name));
  if (!step) return undefined;
  const team = ((results.get("search_teams") as Json)?.teams as Json[] | undefined)?.[0];
  const issue = (results.get("create_issue") as Json)?.issue as Json;
  const title = firstLine.slice(0, 120);
  if (step === "search_teams") return { name: step, args: {} };
  if (step === "create_issue") {
    return {
      name: step,
      args: {
        teamId: team?.id ?? "unknown-team",
        title,
        description: [task, expected].filter(Boolean).join("\n\n"),
      },
    };
  }
  if (!issue) return undefined; // nothing to hang a sub-issue on
  return {
    name: step,
    args: {
      parentId: issue.id,
      teamId: (issue.team as Json)?.id,
      title: `Follow-up: ${title}`.slice(0, 120),
      description: expected ?? task,
    },
  };
}

function describeResult(value: unknown): string {
  const v = value as Json;
  const issue = v?.issue as Json;
  if (issue?.identifier) return `${issue.identifier} — ${String(issue.title)}`;
  if (Array.isArray(v?.teams))
    return `${v.teams.length} teams (${(v.teams as Json[]).map((t) => t?.key).join(", ")})`;
  const error = v?.error as Json;
  if (error?.code) return `error ${String(error.code)}: ${String(error.message)}`;
  return JSON.stringify(value);
}

// Fills a tool's required parameters from the task so the call passes validation.
function argumentsFor(schema: unknown, task: string): Record<string, unknown> {
  const s = schema as {
    properties?: Record<string, { type?: string; enum?: unknown[] }>;
    required?: string[];
  };
  const args: Record<string, unknown> = {};
  for (const name of s.required ?? []) {
    const prop = s.properties?.[name] ?? {};
    if (prop.enum?.length) args[name] = prop.enum[0];
    else if (prop.type === "number" || prop.type === "integer") args[name] = 1;
    else if (prop.type === "boolean") args[name] = true;
    else args[name] = toolText(name, task);
  }
  return args;
}

// The built-in toolkit's arguments, from the task: a `url` is the first address (scheme://…) in it; a
// file (`path`, `filename`) the first name in `backticks` or that looks like a file, else
// the task itself when it is one word, else notes.md. Anything else gets the task's text.
function toolText(name: string, task: string): string {
  if (name === "url")
    return (
      /\b[a-z][a-z0-9+.-]*:\/\/[^\s<>"'`)]+/i.exec(task)?.[0].replace(/[.,;:!?]+$/, "") ??
      task.slice(0, 500)
    );
  if (name === "path" || name === "filename" || name === "file_path")
    return (
      /`([^`\n]{1,200})`/.exec(task)?.[1] ??
      /(?:^|\s)([\w./-]*\w\.(?:md|txt|json|csv|ya?ml|html))\b/.exec(task)?.[1] ??
      (/^\S+$/.test(task.trim()) ? task.trim() : "notes.md")
    );
  return task.slice(0, 500);
}

const LABEL_KEY = "_written_by";

function schemaIn(format: string | undefined): unknown {
  const body = format && /```json\n([\s\S]*?)\n```/.exec(format)?.[1];
  if (!body) return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function summarize(context: string) {
  const lines = context.split("\n").filter((l) => l.startsWith("### "));
  return lines.length ? lines.map((l) => `- ${l.slice(4)}`).join("\n") : context.slice(0, 400);
}

/**
 * The prompt's `# Heading` sections in one pass: a section runs from its heading line to the next
 * line starting with `# `; the first of a name wins, and an empty one counts as absent.
 */
function sectionsOf(text: string): (heading: string) => string | undefined {
  const found = new Map<string, string>();
  let heading: string | undefined;
  let start = 0;
  const close = (end: number) => {
    if (heading !== undefined && !found.has(heading)) found.set(heading, text.slice(start, end));
  };
  for (let at = 0; at < text.length; ) {
    const newline = text.indexOf("\n", at);
    const end = newline === -1 ? text.length : newline;
    if (text.startsWith("# ", at)) {
      close(at);
      // A heading line with nothing after it opens no section.
      heading = newline === -1 ? undefined : text.slice(at + 2, end);
      start = end + 1;
    }
    at = end + 1;
  }
  close(text.length);
  return (name) => found.get(name)?.trim() || undefined;
}

function promptText(prompt: LanguageModelV3Prompt, role?: "system" | "user") {
  return prompt
    .filter((m) => !role || m.role === role)
    .map((m) =>
      typeof m.content === "string"
        ? m.content
        : m.content
            .map((p) => ("text" in p && typeof p.text === "string" ? p.text : ""))
            .join("\n"),
    )
    .join("\n");
}

// Tokens are counted as words. Counted in place, since splitting the whole prompt into an array
// of words on every call was most of this model's time.
function wordsIn(m: LanguageModelV3Prompt[number]): number {
  if (typeof m.content === "string") return countWords(m.content);
  let n = 0;
  for (const p of m.content) if ("text" in p && typeof p.text === "string") n += countWords(p.text);
  return n;
}

/** The number of runs of non-whitespace (whitespace as `\s` means it) in `s`. */
function countWords(s: string): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < s.length; i++) {
    const space = isSpace(s.charCodeAt(i));
    if (!space && !inWord) n++;
    inWord = !space;
  }
  return n;
}

function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}
