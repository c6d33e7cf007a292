import type { AgentDef } from "@/lib/crew/schema";
import type { AgentTool, ToolContext } from "@/lib/tools/types";

/** The tools of the MCP servers the agent's `mcps:` name, from this worker's pooled connections. */
export async function mcpTools(agent: AgentDef, _ctx: ToolContext): Promise<AgentTool[]> {
  if (agent.mcps?.length) throw new Error("MCP servers are not available yet.");
  return [];
}
