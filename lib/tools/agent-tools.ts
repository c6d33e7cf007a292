import type { Tool, ToolExecutionOptions } from "ai";
import { env } from "@/lib/config/env";
import type { RequiresApproval } from "@/lib/crew/requires-approval";
import type { AgentDef } from "@/lib/crew/schema";
import { linkedSignal } from "@/lib/util/linked-signal";
import { builtinTools } from "./builtin";
import { mcpTools } from "./mcp";
import { trackerTools } from "./tracker-tools";
import type { AgentTool, ToolContext } from "./types";

/** A tool result too long for the event log: what was kept there, and the whole of it. */
export type OversizedResult = { call_id: string; tool: string; full: string };

/**
 * Everything one task attempt's agent may call, each wrapped with the per-call limits: a time-out,
 * a cap on calls in the attempt, and results over TOOL_RESULT_MAX_CHARS cut (the whole result is
 * handed to `keepFull`, which keeps it as a run artifact). Tools the agent's (or its MCP server's)
 * `requires_approval` covers wait for a person before they run (`needsApproval`). `warnings` say
 * which MCP tools the agent goes without, and why.
 */
export async function agentTools(
  agent: AgentDef,
  ctx: ToolContext,
  keepFull: (result: OversizedResult) => void,
  { refuseGated = false } = {},
): Promise<{ tools: Record<string, Tool>; listed: AgentTool[]; warnings: string[] }> {
  const mcp = await mcpTools(agent, ctx);
  const listed = [
    ...builtinTools(agent.tools, ctx),
    ...trackerTools(agent.apps, ctx),
    ...mcp.tools,
  ];
  const e = env();
  const budget = { left: agent.max_tool_calls ?? e.TOOL_MAX_CALLS_PER_TASK };
  const tools: Record<string, Tool> = {};
  for (const t of listed) {
    const execute = t.tool.execute;
    if (!execute) continue;
    const gated =
      needsApproval(agent.requires_approval, t) || needsApproval(t.serverRequiresApproval, t, true);
    tools[t.name] = {
      ...t.tool,
      ...(gated && !refuseGated ? { needsApproval: true } : {}),
      execute:
        gated && refuseGated
          ? async () => ({
              error: `'${t.name}' needs a person's approval before it runs, which delegated work cannot wait for: hand the result back and let the agent the task belongs to call it.`,
            })
          : limitedExecute(t.name, execute, {
              timeoutMs: (t.timeoutSeconds ?? e.TOOL_TIMEOUT_SECONDS) * 1000,
              maxChars: e.TOOL_RESULT_MAX_CHARS,
              budget,
              keepFull,
            }),
    };
  }
  return { tools, listed, warnings: mcp.warnings };
}

/**
 * Whether a rule covers a tool: `true` all, `"writes"` those that change something, a list the
 * named ones (`tool`, or `server/tool` and `server` for MCP tools). `onServer`: the rule is the
 * tool's own server's, whose lists name tools without the server.
 */
export function needsApproval(
  rule: RequiresApproval | undefined,
  t: Pick<AgentTool, "name" | "writes" | "server" | "remoteName">,
  onServer = false,
): boolean {
  if (rule === undefined || rule === false) return false;
  if (rule === true) return true;
  if (rule === "writes") return t.writes;
  const names = new Set([t.name]);
  if (t.server) {
    const remote = t.remoteName ?? t.name;
    if (onServer) names.add(remote);
    else names.add(`${t.server}/${remote}`).add(`${t.server}#${remote}`).add(t.server);
  }
  return rule.some((n) => names.has(n));
}

export type CallLimits = {
  timeoutMs: number;
  maxChars: number;
  /** Calls left in the task attempt, shared by all its tools. */
  budget: { left: number };
  keepFull: (result: OversizedResult) => void;
};

/**
 * A tool's execute held to the per-call limits: refused once the attempt's calls are used up,
 * failed after `timeoutMs` (the tool's own work is told to stop), a result longer than
 * `maxChars` cut with a note and handed whole to `keepFull`.
 */
export function limitedExecute(
  name: string,
  execute: NonNullable<Tool["execute"]>,
  { timeoutMs, maxChars, budget, keepFull }: CallLimits,
) {
  const cap = budget.left;
  return async (input: unknown, options: ToolExecutionOptions) => {
    if (budget.left <= 0)
      return {
        error: `Tool call limit reached: at most ${cap} tool call${cap === 1 ? "" : "s"} in one task. Answer with what you have.`,
      };
    budget.left -= 1;
    const timeout = AbortSignal.timeout(timeoutMs);
    const { signal, unlink } = options.abortSignal
      ? linkedSignal(options.abortSignal, timeout)
      : { signal: timeout, unlink: () => {} };
    const result = await withTimeout(
      Promise.resolve(execute(input, { ...options, abortSignal: signal })),
      timeout,
      `Tool '${name}' timed out after ${timeoutMs / 1000} s.`,
    ).finally(unlink);
    return cut(result, maxChars, (full) =>
      keepFull({ call_id: options.toolCallId, tool: name, full }),
    );
  };
}

function withTimeout<T>(work: Promise<T>, signal: AbortSignal, message: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error(message));
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** A result whose JSON is longer than `max` characters, cut with a note saying so. */
function cut(result: unknown, max: number, keep: (full: string) => void): unknown {
  const full = typeof result === "string" ? result : JSON.stringify(result);
  if (full === undefined || full.length <= max) return result;
  keep(full);
  return {
    truncated: true,
    note: `The result was ${full.length} characters; only the first ${max} are shown. The whole result is kept with the run.`,
    preview: full.slice(0, max),
  };
}
