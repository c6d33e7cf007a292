import { tool } from "ai";
import { toolSchema } from "@/lib/tools/tool-schema";
import { executeAction, grantedActions } from "@/lib/tracker/actions";
import { TrackerError } from "@/lib/tracker/errors";
import { ACTION_DESCRIPTIONS, ACTION_SCHEMAS, type ActionName } from "@/lib/tracker/schemas";
import type { AgentTool, ToolContext } from "./types";

// Reading actions; every other one files, changes or removes something in the tracker.
const READS = new Set<ActionName>([
  "search_teams",
  "get_issue_by_id",
  "get_issue_by_issue_identifier",
  "search_issue",
  "get_project_by_id",
]);

/**
 * The tracker actions the agent's `apps` grant. A tracker failure comes back as the tool's result
 * ({error: {code, message}}), so the model can correct its call instead of the task failing.
 */
export function trackerTools(apps: string[], ctx: ToolContext): AgentTool[] {
  return grantedActions(apps).actions.map((name) => ({
    name,
    writes: !READS.has(name),
    source: "tracker",
    tool: tool({
      description: ACTION_DESCRIPTIONS[name],
      inputSchema: toolSchema<Record<string, unknown>>(ACTION_SCHEMAS[name]),
      execute: async (input: Record<string, unknown>) => {
        try {
          return await executeAction(ctx.db, name, input, {
            executionId: ctx.executionId,
            actor: `agent:${ctx.agentId}`,
          });
        } catch (err) {
          if (err instanceof TrackerError) return err.toJSON();
          throw err;
        }
      },
    }),
  }));
}
