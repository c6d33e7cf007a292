import { type Tool, tool } from "ai";
import { z } from "zod";
import type { AgentDef } from "@/lib/crew/schema";

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

export function toolsFor(agent: AgentDef): Record<string, Tool> {
  return Object.fromEntries(agent.tools.map((name) => [name, BUILT_IN[name]]));
}
