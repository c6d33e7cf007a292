import { z } from "zod";

// Crewdeck's: which tool calls wait for a person's approval before they run: all of the agent's
// (true), those that change something ("writes"), or the ones named (a tool, or `server/tool`).
export const RequiresApprovalSchema = z.union(
  [z.boolean(), z.literal("writes"), z.array(z.string().trim().min(1))],
  { error: "requires_approval is true, false, 'writes' or a list of tool names" },
);
export type RequiresApproval = z.infer<typeof RequiresApprovalSchema>;
