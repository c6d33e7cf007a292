import { type Tool, tool } from "ai";
import { z } from "zod";

// The two tools that need nothing outside the process.
export const currentDate = (): Tool =>
  tool({
    description: "Today's date (UTC) in ISO 8601 format, with the weekday.",
    inputSchema: z.object({}),
    execute: async () => {
      const now = new Date();
      return {
        date: now.toISOString().slice(0, 10),
        weekday: now.toLocaleDateString("en-US", { weekday: "long", timeZone: "UTC" }),
      };
    },
  });

export const wordCount = (): Tool =>
  tool({
    description: "Counts the words, sentences and characters of a text, to check a draft's length.",
    inputSchema: z.object({ text: z.string().max(200_000).describe("The text to measure") }),
    execute: async ({ text }) => ({
      words: text.split(/\s+/).filter(Boolean).length,
      sentences: text.split(/[.!?]+(?:\s|$)/).filter((s) => s.trim()).length,
      characters: text.length,
    }),
  });
