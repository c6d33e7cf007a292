import {
  type LanguageModelV3FunctionTool,
  type LanguageModelV3ToolCall,
  TypeValidationError,
} from "@ai-sdk/provider";
import { asSchema, InvalidToolInputError, type ModelMessage, NoSuchToolError, type Tool } from "ai";
import { fieldOf, isRecord } from "@/lib/util/field";
import type { LoopToolCall, LoopToolOutput } from "./loop-step";

// The model's tool calls in the tool loop (./tool-loop.ts): read and checked against their tools,
// held for a person's approval when the tool asks it, or run.

// The model names the tool: only the agent's own, never a name every object has ("constructor").
export const toolNamed = (tools: Record<string, Tool> | undefined, name: string) =>
  tools && Object.hasOwn(tools, name) ? tools[name] : undefined;

export const idOf = (c: LoopToolCall) => ({ toolCallId: c.toolCallId, toolName: c.toolName });

/** The call's input parsed and checked against its tool's schema, or why it cannot run. */
export async function readToolCall(
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
  if (Object.hasOwn(value, "__proto__"))
    throw new SyntaxError("Object contains forbidden prototype property");
  const ctor = fieldOf(value, "constructor");
  if (Object.hasOwn(value, "constructor") && isRecord(ctor) && Object.hasOwn(ctor, "prototype"))
    throw new SyntaxError("Object contains forbidden prototype property");
  for (const v of Object.values(value)) assertNoPrototypeKeys(v);
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
export async function describeTools(
  tools: Record<string, Tool>,
): Promise<LanguageModelV3FunctionTool[]> {
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

export async function approvalNeeded(
  tool: Tool | undefined,
  call: LoopToolCall,
  ctx: { messages: ModelMessage[]; responseMessages: ModelMessage[] },
): Promise<boolean> {
  const rule = tool?.needsApproval;
  if (rule == null) return false;
  if (typeof rule === "boolean") return rule;
  return await rule(call.input, {
    toolCallId: call.toolCallId,
    messages: [...ctx.messages, ...ctx.responseMessages],
  });
}

export async function runTool(
  tool: Tool | undefined,
  call: LoopToolCall,
  messages: ModelMessage[],
  abortSignal: AbortSignal,
): Promise<LoopToolOutput> {
  try {
    if (!tool?.execute) throw new NoSuchToolError({ toolName: call.toolName });
    let output: unknown = await tool.execute(call.input, {
      toolCallId: call.toolCallId,
      messages,
      abortSignal,
    });
    // A tool may stream preliminary results; its last one is the result.
    if (isAsyncIterable(output)) {
      let last: unknown;
      for await (const v of output) last = v;
      output = last;
    }
    return { type: "tool-result", ...idOf(call), output };
  } catch (error) {
    return { type: "tool-error", ...idOf(call), error };
  }
}

const isAsyncIterable = (v: unknown): v is AsyncIterable<unknown> =>
  !!v && typeof v === "object" && Symbol.asyncIterator in v;
