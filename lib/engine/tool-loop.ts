import { setTimeout as sleep } from "node:timers/promises";
import {
  APICallError,
  type LanguageModelV3,
  type LanguageModelV3CallOptions,
  type LanguageModelV3Content,
  type LanguageModelV3FunctionTool,
  type LanguageModelV3Message,
  type LanguageModelV3Prompt,
  type LanguageModelV3ToolCall,
  type LanguageModelV3ToolResultOutput,
  type SharedV3Warning,
  TypeValidationError,
} from "@ai-sdk/provider";
import {
  asSchema,
  InvalidToolInputError,
  type ModelMessage,
  NoSuchToolError,
  RetryError,
  type Tool,
} from "ai";

// The agent's tool loop on the model's own `doGenerate`: call the model, run the tool calls it
// asks for, give it their results, until it answers, stops on calls that wait for a person, or
// uses up its steps. The AI SDK's `generateText` does the same and more (streaming parts,
// telemetry attributes built on every step, a deep copy of the conversation per step, a zod check
// of every prompt), which cost a busy worker more CPU than the rest of a task. This keeps its
// behaviour where the engine relies on it: retries, tool input checks, approval requests, the
// conversation format (pauses are stored in it), provider metadata carried back to the model.

export type LoopToolCall = { toolCallId: string; toolName: string; input: unknown };

export type LoopToolOutput =
  | { type: "tool-result"; toolCallId: string; toolName: string; output: unknown }
  | { type: "tool-error"; toolCallId: string; toolName: string; error: unknown };

/** One model call and what came of it. */
export type LoopStep = {
  /** The model's text parts, joined. */
  text: string;
  reasoningText: string | undefined;
  toolCalls: LoopToolCall[];
  /** Results and errors of the calls that ran (and of calls that could not be read), in order. */
  toolOutputs: LoopToolOutput[];
  /** The calls that wait for a person's approval (their tool's `needsApproval`); not run. */
  approvalRequests: LoopToolCall[];
  usage: { inputTokens: number | undefined; outputTokens: number | undefined };
};

export type Sampling = Pick<
  LanguageModelV3CallOptions,
  "temperature" | "maxOutputTokens" | "topP" | "stopSequences" | "seed"
>;

export type LoopResult = {
  /** The last step's text. */
  text: string;
  steps: number;
  totalUsage: { inputTokens: number; outputTokens: number };
  /** The model's turns and the tools' results, to go on with after `messages`. */
  responseMessages: ModelMessage[];
  /** The last step's calls that wait for a person. */
  approvalRequests: LoopToolCall[];
};

/**
 * Runs the loop. `onStepFinish` runs after each step, before the next model call; an error it
 * throws ends the loop with that error. The caller's `abortSignal` is checked between steps and
 * passed to the model and the tools.
 */
export async function toolLoop({
  model,
  system,
  messages,
  tools,
  maxSteps,
  maxRetries,
  abortSignal,
  sampling = {},
  onStepFinish,
}: {
  model: LanguageModelV3;
  system: string;
  messages: ModelMessage[];
  tools?: Record<string, Tool>;
  maxSteps: number;
  maxRetries: number;
  abortSignal: AbortSignal;
  sampling?: Sampling;
  onStepFinish?: (step: LoopStep) => Promise<void> | void;
}): Promise<LoopResult> {
  const toolSet = tools && Object.keys(tools).length ? tools : undefined;
  const functionTools = toolSet ? await describeTools(toolSet) : undefined;
  const prompt: LanguageModelV3Prompt = [
    { role: "system", content: system },
    ...toPromptMessages(messages),
  ];
  const responseMessages: ModelMessage[] = [];
  const totalUsage = { inputTokens: 0, outputTokens: 0 };
  let steps = 0;
  for (;;) {
    if (steps > 0) abortSignal.throwIfAborted();
    const result = await withRetries(
      () =>
        model.doGenerate({
          ...sampling,
          prompt: [...prompt], // the loop goes on adding to its own
          tools: functionTools,
          toolChoice: functionTools ? { type: "auto" } : undefined,
          abortSignal,
        }),
      maxRetries,
      abortSignal,
    );
    steps++;
    warnOnce(model, result.warnings);
    const usage = {
      inputTokens: result.usage.inputTokens.total,
      outputTokens: result.usage.outputTokens.total,
    };
    const step = await settleStep(result.content, result.finishReason.unified, toolSet, usage, {
      abortSignal,
      messages,
      responseMessages,
    });
    totalUsage.inputTokens += step.usage.inputTokens ?? 0;
    totalUsage.outputTokens += step.usage.outputTokens ?? 0;
    const turn = turnOf(result.content, step);
    for (const m of turn) {
      responseMessages.push(m.message);
      prompt.push(m.prompt);
    }
    await onStepFinish?.(step);
    const calls = step.toolCalls.length;
    // Go on while every call the model made has its result (none waits for a person).
    if (calls === 0 || step.toolOutputs.length !== calls || steps >= maxSteps) {
      return {
        text: step.text,
        steps,
        totalUsage,
        responseMessages,
        approvalRequests: step.approvalRequests,
      };
    }
  }
}

/** The step's tool calls read against the tools, the approvals asked for, the others run. */
async function settleStep(
  content: LanguageModelV3Content[],
  finishReason: string,
  tools: Record<string, Tool> | undefined,
  usage: LoopStep["usage"],
  ctx: { abortSignal: AbortSignal; messages: ModelMessage[]; responseMessages: ModelMessage[] },
): Promise<LoopStep> {
  let text = "";
  let reasoning: string | undefined;
  const toolCalls: LoopToolCall[] = [];
  const toolOutputs: LoopToolOutput[] = [];
  const approvalRequests: LoopToolCall[] = [];
  const runnable: LoopToolCall[] = [];
  for (const part of content) {
    if (part.type === "text") text += part.text;
    else if (part.type === "reasoning") reasoning = (reasoning ?? "") + part.text;
    else if (part.type === "tool-call" && !part.providerExecuted) {
      const read = await readToolCall(part, tools);
      toolCalls.push(read.call);
      if (read.error) {
        toolOutputs.push({ type: "tool-error", ...idOf(read.call), error: messageOf(read.error) });
      } else if (await approvalNeeded(toolNamed(tools, part.toolName), read.call, ctx)) {
        approvalRequests.push(read.call);
      } else {
        runnable.push(read.call);
      }
    }
  }
  // As the SDK: tools run only when the model finished to call them (not cut off by its length).
  if (tools && (finishReason === "stop" || finishReason === "tool-calls")) {
    const history = [...ctx.messages, ...ctx.responseMessages];
    toolOutputs.push(
      ...(await Promise.all(
        runnable.map((call) =>
          runTool(toolNamed(tools, call.toolName), call, history, ctx.abortSignal),
        ),
      )),
    );
  }
  return {
    text,
    reasoningText: reasoning,
    toolCalls,
    toolOutputs,
    approvalRequests,
    usage,
  };
}

// The model names the tool: only the agent's own, never a name every object has ("constructor").
const toolNamed = (tools: Record<string, Tool> | undefined, name: string) =>
  tools && Object.hasOwn(tools, name) ? tools[name] : undefined;

const idOf = (c: LoopToolCall) => ({ toolCallId: c.toolCallId, toolName: c.toolName });

/** The call's input parsed and checked against its tool's schema, or why it cannot run. */
async function readToolCall(
  part: LanguageModelV3ToolCall,
  tools: Record<string, Tool> | undefined,
): Promise<{ call: LoopToolCall; error?: unknown }> {
  const raw = part.input.trim() === "" ? { ok: true as const, value: {} } : parseJson(part.input);
  const call = {
    toolCallId: part.toolCallId,
    toolName: part.toolName,
    input: raw.ok ? raw.value : part.input,
  };
  const tool = toolNamed(tools, part.toolName);
  if (!tool) {
    const availableTools = tools ? Object.keys(tools) : undefined;
    return { call, error: new NoSuchToolError({ toolName: part.toolName, availableTools }) };
  }
  const invalid = (cause: unknown) => ({
    call,
    error: new InvalidToolInputError({ toolName: part.toolName, toolInput: part.input, cause }),
  });
  if (!raw.ok) return invalid(raw.error);
  const checked = await schemaOf(tool).validate?.(raw.value);
  if (!checked) return { call };
  if (!checked.success)
    return invalid(TypeValidationError.wrap({ value: raw.value, cause: checked.error }));
  return { call: { ...call, input: checked.value } };
}

// JSON.parse without the prototype keys a crafted tool input could use to pollute objects later
// merged from it (what secure-json-parse refuses, as the SDK does).
function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: unknown } {
  try {
    const value: unknown = JSON.parse(text);
    // Walked when a key could be one of them, spelt out or with \u escapes.
    if (/__proto__|constructor|\\u/.test(text)) assertNoPrototypeKeys(value);
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error };
  }
}

function assertNoPrototypeKeys(value: unknown) {
  if (!value || typeof value !== "object") return;
  const o = value as Record<string, unknown>;
  if (Object.hasOwn(o, "__proto__"))
    throw new SyntaxError("Object contains forbidden prototype property");
  if (
    Object.hasOwn(o, "constructor") &&
    o.constructor &&
    typeof o.constructor === "object" &&
    Object.hasOwn(o.constructor, "prototype")
  )
    throw new SyntaxError("Object contains forbidden prototype property");
  for (const v of Object.values(o)) assertNoPrototypeKeys(v);
}

const schemas = new WeakMap<Tool, ReturnType<typeof asSchema>>();
function schemaOf(tool: Tool) {
  let s = schemas.get(tool);
  if (!s) {
    s = asSchema(tool.inputSchema);
    schemas.set(tool, s);
  }
  return s;
}

// The tools as the model reads them, made once per tool object (converting a zod schema to JSON
// Schema on every step was a measurable part of a task).
const described = new WeakMap<Tool, LanguageModelV3FunctionTool>();
async function describeTools(tools: Record<string, Tool>): Promise<LanguageModelV3FunctionTool[]> {
  const out: LanguageModelV3FunctionTool[] = [];
  for (const [name, tool] of Object.entries(tools)) {
    let d = described.get(tool);
    if (!d || d.name !== name) {
      d = {
        type: "function",
        name,
        description: tool.description,
        inputSchema: await schemaOf(tool).jsonSchema,
        ...(tool.inputExamples != null ? { inputExamples: tool.inputExamples } : {}),
        ...(tool.providerOptions != null ? { providerOptions: tool.providerOptions } : {}),
        ...(tool.strict != null ? { strict: tool.strict } : {}),
      };
      described.set(tool, d);
    }
    out.push(d);
  }
  return out;
}

async function approvalNeeded(
  tool: Tool | undefined,
  call: LoopToolCall,
  ctx: { messages: ModelMessage[]; responseMessages: ModelMessage[] },
): Promise<boolean> {
  const rule = tool?.needsApproval;
  if (rule == null) return false;
  if (typeof rule === "boolean") return rule;
  return await rule(call.input as never, {
    toolCallId: call.toolCallId,
    messages: [...ctx.messages, ...ctx.responseMessages],
  });
}

async function runTool(
  tool: Tool | undefined,
  call: LoopToolCall,
  messages: ModelMessage[],
  abortSignal: AbortSignal,
): Promise<LoopToolOutput> {
  try {
    if (!tool?.execute) throw new NoSuchToolError({ toolName: call.toolName });
    let output: unknown = await tool.execute(call.input as never, {
      toolCallId: call.toolCallId,
      messages,
      abortSignal,
    });
    // A tool may stream preliminary results; its last one is the result.
    if (output && typeof output === "object" && Symbol.asyncIterator in output) {
      let last: unknown;
      for await (const v of output as AsyncIterable<unknown>) last = v;
      output = last;
    }
    return { type: "tool-result", ...idOf(call), output };
  } catch (error) {
    return { type: "tool-error", ...idOf(call), error };
  }
}

/**
 * The step as the conversation goes on: the model's turn (its text, reasoning and calls, with the
 * provider's metadata that some models need back), then the tools' results.
 */
function turnOf(
  content: LanguageModelV3Content[],
  step: LoopStep,
): { message: ModelMessage; prompt: LanguageModelV3Message }[] {
  type AssistantPart = Extract<LanguageModelV3Message, { role: "assistant" }>["content"][number];
  const parts: AssistantPart[] = [];
  const inputs = new Map(step.toolCalls.map((c) => [c.toolCallId, c.input]));
  for (const part of content) {
    const providerOptions = "providerMetadata" in part ? part.providerMetadata : undefined;
    if (part.type === "text" && part.text.length > 0)
      parts.push({ type: "text", text: part.text, providerOptions });
    else if (part.type === "reasoning")
      parts.push({ type: "reasoning", text: part.text, providerOptions });
    else if (part.type === "tool-call" && !part.providerExecuted) {
      const input = inputs.get(part.toolCallId);
      parts.push({
        type: "tool-call",
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        // An input that was not JSON goes back as an empty object, as the SDK sends it.
        input: input !== null && typeof input === "object" ? input : {},
        providerOptions,
      });
    }
  }
  const out: { message: ModelMessage; prompt: LanguageModelV3Message }[] = [];
  if (parts.length) {
    out.push({
      message: { role: "assistant", content: parts } as ModelMessage,
      prompt: { role: "assistant", content: parts },
    });
  }
  if (step.toolOutputs.length) {
    const results = step.toolOutputs.map((o) => ({
      type: "tool-result" as const,
      toolCallId: o.toolCallId,
      toolName: o.toolName,
      output: modelOutput(o),
    }));
    out.push({
      message: { role: "tool", content: results },
      prompt: { role: "tool", content: results },
    });
  }
  return out;
}

function modelOutput(o: LoopToolOutput): LanguageModelV3ToolResultOutput {
  if (o.type === "tool-error") return { type: "error-text", value: messageOf(o.error) };
  if (typeof o.output === "string") return { type: "text", value: o.output };
  return { type: "json", value: (o.output === undefined ? null : o.output) as never };
}

/**
 * A stored or new conversation in the model's prompt format: approval requests and responses are
 * the engine's own bookkeeping (lib/engine/tool-approvals.ts) and never go to the model.
 */
export function toPromptMessages(messages: ModelMessage[]): LanguageModelV3Message[] {
  const out: LanguageModelV3Message[] = [];
  for (const m of messages) {
    if (m.role === "system") {
      out.push({ role: "system", content: m.content, providerOptions: m.providerOptions });
    } else if (m.role === "user") {
      out.push({
        role: "user",
        content:
          typeof m.content === "string"
            ? [{ type: "text", text: m.content }]
            : (m.content.filter((p) => p.type !== "text" || p.text !== "") as never),
        providerOptions: m.providerOptions,
      });
    } else if (m.role === "assistant") {
      out.push({
        role: "assistant",
        content:
          typeof m.content === "string"
            ? [{ type: "text", text: m.content }]
            : (m.content.filter(
                (p) =>
                  p.type !== "tool-approval-request" &&
                  (p.type !== "text" || p.text !== "" || p.providerOptions != null),
              ) as never),
        providerOptions: m.providerOptions,
      });
    } else {
      const content = m.content.filter(
        (p) => p.type !== "tool-approval-response" || p.providerExecuted,
      ) as Extract<LanguageModelV3Message, { role: "tool" }>["content"];
      const last = out.at(-1);
      // Consecutive tool messages go to the model as one.
      if (last?.role === "tool") last.content = [...last.content, ...content];
      else if (content.length)
        out.push({ role: "tool", content, providerOptions: m.providerOptions });
    }
  }
  return out;
}

// A provider's warning (a setting the model ignores, a compatibility mode) said once per process:
// the operator sees it in the log, as the SDK logs it, without one line per step.
const warned = new Set<string>();
function warnOnce(model: LanguageModelV3, warnings: SharedV3Warning[] | undefined) {
  for (const w of warnings ?? []) {
    const what =
      w.type === "other" ? w.message : `${w.type} ${w.feature}${w.details ? `: ${w.details}` : ""}`;
    const line = `Model ${model.provider}/${model.modelId}: ${what}`;
    if (warned.has(line)) continue;
    warned.add(line);
    console.warn(line);
  }
}

/**
 * The model call, retried as the SDK retries it: errors the provider marks retryable (429, 5xx,
 * lost connections), after 2 s, 4 s, … or the server's retry-after; `maxRetries` more at most.
 */
async function withRetries<T>(
  call: () => PromiseLike<T>,
  maxRetries: number,
  signal: AbortSignal,
): Promise<T> {
  const errors: unknown[] = [];
  let backoff = 2000;
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (isAbortError(error) || maxRetries === 0) throw error;
      errors.push(error);
      const message = messageOf(error);
      if (errors.length > maxRetries)
        throw new RetryError({
          message: `Failed after ${errors.length} attempts. Last error: ${message}`,
          reason: "maxRetriesExceeded",
          errors,
        });
      if (!(APICallError.isInstance(error) && error.isRetryable)) {
        if (errors.length === 1) throw error;
        throw new RetryError({
          message: `Failed after ${errors.length} attempts with non-retryable error: '${message}'`,
          reason: "errorNotRetryable",
          errors,
        });
      }
      await sleep(retryDelay(error, backoff), undefined, { signal });
      backoff *= 2;
    }
  }
}

// The server's retry-after(-ms) when it gives one under a minute (or under the backoff).
function retryDelay(error: APICallError, backoff: number): number {
  const headers = error.responseHeaders;
  if (!headers) return backoff;
  let ms: number | undefined;
  const afterMs = Number.parseFloat(headers["retry-after-ms"] ?? "");
  if (!Number.isNaN(afterMs)) ms = afterMs;
  const after = headers["retry-after"];
  if (after && ms === undefined) {
    const s = Number.parseFloat(after);
    ms = Number.isNaN(s) ? Date.parse(after) - Date.now() : s * 1000;
  }
  if (ms !== undefined && !Number.isNaN(ms) && ms >= 0 && (ms < 60_000 || ms < backoff)) return ms;
  return backoff;
}

function isAbortError(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === "AbortError" ||
      error.name === "ResponseAborted" ||
      error.name === "TimeoutError")
  );
}

function messageOf(error: unknown): string {
  if (error == null) return "unknown error";
  if (typeof error === "string") return error;
  if (error instanceof Error) return error.message;
  return JSON.stringify(error);
}
