import type { LanguageModelV3, LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { type Tool, wrapLanguageModel } from "ai";
import { observeTokens } from "@/lib/metrics/observe";
import { CLIENT, STATUS_ERROR, tracing } from "./state";

// Model calls and tool calls as OpenTelemetry's GenAI semantic conventions name them
// (https://opentelemetry.io/docs/specs/semconv/gen-ai/): `chat {model}` and
// `execute_tool {tool}` spans under the task attempt's `invoke_agent` span.

const json = (v: unknown) => {
  try {
    return typeof v === "string" ? v : JSON.stringify(v);
  } catch {
    return String(v);
  }
};

/**
 * A model whose calls count their tokens (Prometheus) and, with tracing on, are `chat` spans with
 * the model, the tokens and the finish reason; prompts and completions only with
 * CREWDECK_OTEL_CAPTURE_CONTENT.
 */
export function observedModel(
  model: LanguageModelV3,
  info: { crew: string; modelId: string; provider: string; model: string },
): LanguageModelV3 {
  const spanFor = (params: LanguageModelV3CallOptions) => {
    const t = tracing();
    if (!t) return undefined;
    const span = t.start(`chat ${info.model}`, {
      kind: CLIENT,
      attributes: {
        "gen_ai.operation.name": "chat",
        "gen_ai.system": info.provider,
        "gen_ai.provider.name": info.provider,
        "gen_ai.request.model": info.model,
        ...(params.temperature !== undefined
          ? { "gen_ai.request.temperature": params.temperature }
          : {}),
        ...(params.maxOutputTokens !== undefined
          ? { "gen_ai.request.max_tokens": params.maxOutputTokens }
          : {}),
        ...(params.topP !== undefined ? { "gen_ai.request.top_p": params.topP } : {}),
        ...(t.captureContent ? { "gen_ai.input.messages": json(params.prompt) } : {}),
      },
    });
    return { span, captureContent: t.captureContent };
  };
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: "v3",
      wrapGenerate: async ({ doGenerate, params }) => {
        const traced = spanFor(params);
        try {
          const result = await doGenerate();
          const input = result.usage.inputTokens.total ?? 0;
          const output = result.usage.outputTokens.total ?? 0;
          observeTokens(info.crew, info.modelId, input, output);
          if (traced) {
            traced.span.setAttributes({
              "gen_ai.response.model": result.response?.modelId ?? info.model,
              "gen_ai.usage.input_tokens": input,
              "gen_ai.usage.output_tokens": output,
              "gen_ai.response.finish_reasons": [result.finishReason.unified],
              ...(result.response?.id ? { "gen_ai.response.id": result.response.id } : {}),
              ...(traced.captureContent ? { "gen_ai.output.messages": json(result.content) } : {}),
            });
          }
          return result;
        } catch (err) {
          failed(traced?.span, err);
          throw err;
        } finally {
          traced?.span.end();
        }
      },
      // The engine does not stream; a streamed call is timed until its stream is handed over.
      wrapStream: async ({ doStream, params }) => {
        const traced = spanFor(params);
        try {
          return await doStream();
        } catch (err) {
          failed(traced?.span, err);
          throw err;
        } finally {
          traced?.span.end();
        }
      },
    },
  });
}

/** The agent's tools, each call an `execute_tool` span (with tracing on; else unchanged). */
export function tracedTools(tools: Record<string, Tool>): Record<string, Tool> {
  const t = tracing();
  if (!t) return tools;
  return Object.fromEntries(
    Object.entries(tools).map(([name, tool]) => {
      const execute = tool.execute;
      if (!execute) return [name, tool];
      const traced: Tool = {
        ...tool,
        execute: (input, options) => {
          const span = t.start(`execute_tool ${name}`, {
            attributes: {
              "gen_ai.operation.name": "execute_tool",
              "gen_ai.tool.name": name,
              "gen_ai.tool.call.id": options.toolCallId,
              "gen_ai.tool.type": "function",
              ...(tool.description ? { "gen_ai.tool.description": tool.description } : {}),
              ...(t.captureContent ? { "gen_ai.tool.call.arguments": json(input) } : {}),
            },
          });
          // Work inside the call (a coworker's model calls, when delegating) nests under it.
          return t.current.run(span, async () => {
            try {
              const result = await execute(input, options);
              if (t.captureContent) span.setAttribute("gen_ai.tool.call.result", json(result));
              return result;
            } catch (err) {
              failed(span, err);
              throw err;
            } finally {
              span.end();
            }
          });
        },
      };
      return [name, traced];
    }),
  );
}

function failed(
  span:
    | {
        recordException(e: Error): void;
        setStatus(s: { code: number; message?: string }): void;
        setAttribute(k: string, v: string): void;
      }
    | undefined,
  err: unknown,
) {
  if (!span) return;
  const e = err instanceof Error ? err : new Error(String(err));
  span.recordException(e);
  span.setAttribute("error.type", e.name || "Error");
  span.setStatus({ code: STATUS_ERROR, message: e.message });
}
