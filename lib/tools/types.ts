import type { Tool } from "ai";
import type { RequiresApproval } from "@/lib/crew/requires-approval";
import type { CrewDef } from "@/lib/crew/schema";
import type { Db } from "@/lib/db/types";

/** Where a tool call happens: the run, task attempt and agent it works for. */
export type ToolContext = {
  db: Db;
  executionId: string;
  crew: CrewDef;
  taskId: string;
  attempt: number;
  agentId: string;
};

/**
 * One tool an agent may call, as the model sees it (`name`, `tool`), with what the engine needs
 * to wrap it: whether it changes anything outside the run (approval gates: `requires_approval:
 * writes`), and where it comes from (messages, the event log).
 */
export type AgentTool = {
  name: string;
  tool: Tool;
  writes: boolean;
  source: "builtin" | "tracker" | "mcp";
  /** MCP: the server it belongs to, as the crew or settings name it. */
  server?: string;
  /** MCP: the tool's name on its server (`name` is what the model sees). */
  remoteName?: string;
  /** MCP: the server's own `requires_approval`, whose lists name tools without the server. */
  serverRequiresApproval?: RequiresApproval;
  /** This tool's own per-call time-out (its MCP server's `timeout_seconds`). */
  timeoutSeconds?: number;
  /**
   * The call's arguments as they may be recorded and shown (the event log, approval cards,
   * webhooks): an MCP server's secrets blotted out. The tool itself gets them as they were.
   */
  redact?: (input: unknown) => unknown;
};
