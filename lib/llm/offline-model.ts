import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import { sleep } from "@/lib/util/sleep";
import { sampleFor } from "./offline-json";
import { countWords, promptText, sectionsOf, wordsIn } from "./offline-prompt";
import { judge, revise as reviseForRules } from "./offline-rules";
import { DELEGATE_TOOL, delegation, describeResult, nextCall } from "./offline-tools";

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
        else parts.push(c);
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
  const section = sectionsOf(user);
  // Asked to check a guardrail: judge the rules it can read (word limits, words to mention).
  const rule = section("Guardrail");
  const checked = section("Output to check");
  if (rule && checked !== undefined) {
    const verdict = judge(rule, checked);
    return [{ type: "text", text: `${verdict.pass ? "PASS" : "FAIL"}: ${verdict.reason}` }];
  }
  const asked = readPrompt(options, user);
  // Told its steps are used up (max_iter): no more tools, answer now.
  const mustAnswer = /^# Final answer now$/m.test(user);
  return (
    (mustAnswer ? undefined : toolStep(options, asked)) ??
    jsonAnswer(asked) ??
    revisedAnswer(asked) ??
    handedBackAnswer(asked) ??
    writtenAnswer(asked)
  );
}

/** What the prompt asks of the model, as the offline model reads it. */
type Asked = ReturnType<typeof readPrompt>;

function readPrompt(options: LanguageModelV3CallOptions, user: string) {
  const section = sectionsOf(user);
  const system = promptText(options.prompt, "system");
  const task = section("Task") ?? user.trim();
  const toolResults = options.prompt.flatMap((m) => (m.role === "tool" ? m.content : []));
  return {
    section,
    task,
    expected: section("Expected output"),
    context: section("Context"),
    role: /You are (.+?)\./.exec(system)?.[1] ?? "an agent",
    firstLine: task.split("\n")[0]?.trim() ?? task,
    calls: toolResults.length,
    results: new Map(
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
    ),
  };
}

/** A tool call before answering, when a tool (or a coworker) has something the task needs. */
function toolStep(
  options: LanguageModelV3CallOptions,
  { task, expected, context, firstLine, results, role, calls }: Asked,
): LanguageModelV3Content[] | undefined {
  const tools = (options.tools ?? []).filter((t) => t.type === "function");
  const next =
    nextCall(
      tools.map((t) => ({ name: t.name, inputSchema: t.inputSchema })),
      results,
      { task, expected, firstLine },
    ) ?? delegation(tools, results, { task, expected, context });
  if (!next) return undefined;
  return [
    {
      type: "reasoning",
      text: `As ${role}, I will use ${next.name} before answering: ${firstLine}`,
    },
    {
      type: "tool-call",
      toolCallId: `offline-${calls + 1}`,
      toolName: next.name,
      input: JSON.stringify(next.args),
    },
  ];
}

/** A document matching the output format the prompt gives, labelled unless that was refused. */
function jsonAnswer({ section, firstLine, role }: Asked): LanguageModelV3Content[] | undefined {
  const schema = schemaIn(section("Output format"));
  if (schema === undefined) return undefined;
  const fix = section("Fix these problems");
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

/** The answer revised to keep the rules a failed check named. */
function revisedAnswer({ section, firstLine, role }: Asked): LanguageModelV3Content[] | undefined {
  const fix = section("Fix these problems");
  if (!fix) return undefined;
  return [
    { type: "reasoning", text: `As ${role}, I revise my answer for: ${fix.split("\n")[0]}` },
    { type: "text", text: reviseForRules(firstLine, fix) },
  ];
}

/** A manager (or a delegating agent) answers with the coworker's work, checked. */
function handedBackAnswer({ results, role }: Asked): LanguageModelV3Content[] | undefined {
  const handedBack = results.get(DELEGATE_TOOL);
  if (typeof handedBack !== "string") return undefined;
  return [
    { type: "reasoning", text: `As ${role}, I have checked what my coworker handed back.` },
    {
      type: "text",
      text: `${handedBack}\n\n_Checked by ${role} against the expected output before handing it on._`,
    },
  ];
}

/** The answer built from the task: what it delivers, builds on, observed and was told. */
function writtenAnswer({
  section,
  task,
  expected,
  context,
  role,
  firstLine,
  results,
}: Asked): LanguageModelV3Content[] {
  const revise = section("Revise it: reviewer feedback");
  const reviewerNotes = section("Reviewer feedback");
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
