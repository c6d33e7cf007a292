import { type Tool, tool } from "ai";
import { z } from "zod";
import type { AgentDef } from "@/lib/crew/schema";
import type { Db } from "@/lib/db/types";
import { executeAction, grantedActions } from "@/lib/tracker/actions";
import { TrackerError } from "@/lib/tracker/errors";
import { ACTION_DESCRIPTIONS, ACTION_SCHEMAS } from "@/lib/tracker/schemas";

// Built-in tools an agent may list under `tools:`. Each validates its arguments with zod (the
// model's tool calls go through the same schema as anything else).
const BUILT_IN = {
  current_date: tool({
    description: "Today's date (UTC) in ISO 8601 format, with the weekday.",
    inputSchema: z.object({}),
    execute: async () => {
      const now = new Date();
      return {
        date: now.toISOString().slice(0, 10),
        weekday: now.toLocaleDateString("en-US", { weekday: "long", timeZone: "UTC" }),
      };
    },
  }),
  word_count: tool({
    description: "Counts the words, sentences and characters of a text, to check a draft's length.",
    inputSchema: z.object({ text: z.string().max(200_000).describe("The text to measure") }),
    execute: async ({ text }) => ({
      words: text.split(/\s+/).filter(Boolean).length,
      sentences: text.split(/[.!?]+(?:\s|$)/).filter((s) => s.trim()).length,
      characters: text.length,
    }),
  }),
} satisfies Record<string, Tool>;

export type ToolContext = { db: Db; executionId: string };

/**
 * The agent's tools: its built-in ones, and the tracker actions its `apps` grant. A tracker
 * failure comes back as the tool's result ({error: {code, message}}), so the model can correct
 * its call instead of the task failing.
 */
export function toolsFor(agent: AgentDef, ctx?: ToolContext): Record<string, Tool> {
  const tools: Record<string, Tool> = Object.fromEntries(
    agent.tools.map((name) => [name, BUILT_IN[name]]),
  );
  if (!ctx) return tools;
  for (const name of grantedActions(agent.apps).actions) {
    tools[name] = tool({
      description: ACTION_DESCRIPTIONS[name],
      inputSchema: ACTION_SCHEMAS[name] as z.ZodType<Record<string, unknown>>,
      execute: async (input: Record<string, unknown>) => {
        try {
          return await executeAction(ctx.db, name, input, {
            executionId: ctx.executionId,
            actor: `agent:${agent.id}`,
          });
        } catch (err) {
          if (err instanceof TrackerError) return err.toJSON();
          throw err;
        }
      },
    });
  }
  return tools;
}
