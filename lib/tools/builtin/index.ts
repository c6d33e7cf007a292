import type { Tool } from "ai";
import { catalogEntry } from "@/lib/crew/tool-catalog";
import type { AgentTool, ToolContext } from "@/lib/tools/types";
import { currentDate, wordCount } from "./basic";
import { listDirectory, readFile, writeFile } from "./files";
import { scrapeWebsite } from "./scrape-website";
import { webSearch } from "./web-search";

// Each built-in tool made for one task attempt (the workspace and limits are the run's).
const MAKERS: Record<string, (ctx: ToolContext) => Tool> = {
  current_date: () => currentDate(),
  word_count: () => wordCount(),
  scrape_website: () => scrapeWebsite(),
  web_search: () => webSearch(),
  read_file: (ctx) => readFile(ctx),
  write_file: (ctx) => writeFile(ctx),
  list_directory: (ctx) => listDirectory(ctx),
};

/** The agent's built-in tools (`tools:`, names resolved at load), made for this attempt. */
export function builtinTools(names: string[], ctx: ToolContext): AgentTool[] {
  return names.map((name) => {
    const entry = catalogEntry(name);
    const make = entry && MAKERS[entry.name];
    if (!entry || !make) throw new Error(`Tool '${name}' is not built into this Crewdeck.`);
    return { name: entry.name, tool: make(ctx), writes: entry.writes, source: "builtin" };
  });
}

/** The tools that need no run (current_date, word_count), by name: for benchmarks and tests. */
export function plainTools(names: string[]): Record<string, Tool> {
  const plain: Record<string, () => Tool> = { current_date: currentDate, word_count: wordCount };
  return Object.fromEntries(
    names.flatMap((n) => {
      const make = plain[n];
      return make ? [[n, make()]] : [];
    }),
  );
}
