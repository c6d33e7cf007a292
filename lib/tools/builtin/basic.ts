import { type Tool, tool } from "ai";
import { z } from "zod";
import { toolSchema } from "@/lib/tools/tool-schema";

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const noInput = toolSchema(z.object({}));
const textInput = toolSchema(
  z.object({ text: z.string().max(200_000).describe("The text to measure") }),
);

// The two tools that need nothing outside the process.
export const currentDate = (): Tool =>
  tool({
    description: "Today's date (UTC) in ISO 8601 format, with the weekday.",
    inputSchema: noInput,
    execute: async () => {
      const now = new Date();
      return {
        date: now.toISOString().slice(0, 10),
        weekday: WEEKDAYS[now.getUTCDay()],
      };
    },
  });

export const wordCount = (): Tool =>
  tool({
    description: "Counts the words, sentences and characters of a text, to check a draft's length.",
    inputSchema: textInput,
    execute: async ({ text }) => ({
      words: text.split(/\s+/).filter(Boolean).length,
      sentences: text.split(/[.!?]+(?:\s|$)/).filter((s) => s.trim()).length,
      characters: text.length,
    }),
  });
