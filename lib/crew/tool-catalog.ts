// The built-in tools by name, with the CrewAI tool classes each stands in for, so a crew written
// for CrewAI (`tools: [SerperDevTool]` in agents.yaml, or `tools=[SerperDevTool()]` in crew.py)
// loads unchanged where a safe equivalent exists.
export type CatalogEntry = {
  name: string;
  /** CrewAI's class names for the same tool. */
  aliases: string[];
  /** Changes something outside the run's own reading (approval gates: `writes`). */
  writes: boolean;
  summary: string;
};

export const TOOL_CATALOG: CatalogEntry[] = [
  { name: "current_date", aliases: [], writes: false, summary: "Today's date (UTC) and weekday." },
  {
    name: "word_count",
    aliases: [],
    writes: false,
    summary: "Counts a text's words, sentences and characters.",
  },
  {
    name: "scrape_website",
    aliases: ["ScrapeWebsiteTool", "ScrapeElementFromWebsiteTool"],
    writes: false,
    summary: "Fetches a web page as plain text (public addresses only, size and time limits).",
  },
  {
    name: "web_search",
    aliases: ["SerperDevTool", "TavilySearchTool", "BraveSearchTool", "SearxNGSearchTool"],
    writes: false,
    summary: "Searches the web through the configured provider (Serper, Tavily, Brave, SearXNG).",
  },
  {
    name: "read_file",
    aliases: ["FileReadTool"],
    writes: false,
    summary: "Reads a file from the run's workspace.",
  },
  {
    name: "write_file",
    aliases: ["FileWriterTool"],
    writes: true,
    summary: "Writes a file into the run's workspace (downloadable from the run page).",
  },
  {
    name: "list_directory",
    aliases: ["DirectoryReadTool"],
    writes: false,
    summary: "Lists the files in the run's workspace.",
  },
];

const byName = new Map(
  TOOL_CATALOG.flatMap((e) => [e.name, ...e.aliases].map((n) => [n.toLowerCase(), e] as const)),
);

/** The built-in tool a crew's name stands for (its own name or a CrewAI class name), if any. */
export function catalogEntry(name: string): CatalogEntry | undefined {
  return byName.get(name.trim().replace(/\(\)$/, "").toLowerCase());
}

export const TOOL_NAMES = TOOL_CATALOG.map((e) => e.name);
