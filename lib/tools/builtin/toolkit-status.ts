import { type Env, env } from "@/lib/config/env";
import { searchSetupProblem } from "@/lib/crew/search-setup";
import { TOOL_CATALOG } from "@/lib/crew/tool-catalog";
import { formatBytes } from "@/lib/format/numbers";
import { maxFileBytes } from "./workspace";

export type ToolkitStatus = {
  name: string;
  aliases: string[];
  summary: string;
  writes: boolean;
  /** Whether it works as configured; `note` says what it uses, or what to set. */
  ready: boolean;
  note: string;
};

/** Each built-in tool as this deployment has it configured, for Settings → Tools. */
export function toolkitStatus(e: Env = env()): ToolkitStatus[] {
  const networks = e.TOOL_ALLOWED_NETWORKS.trim();
  const files = `Per-run workspace, text files up to ${formatBytes(maxFileBytes())}`;
  const notes: Record<string, { ready: boolean; note: string }> = {
    scrape_website: {
      ready: true,
      note: networks
        ? `Public addresses, and ${networks}`
        : "Public addresses only (TOOL_ALLOWED_NETWORKS opens private ones)",
    },
    web_search: (() => {
      const problem = searchSetupProblem(e);
      return problem
        ? { ready: false, note: problem.charAt(0).toUpperCase() + problem.slice(1) }
        : { ready: true, note: `Through ${e.SEARCH_PROVIDER}` };
    })(),
    read_file: { ready: true, note: files },
    write_file: { ready: true, note: `${files}; kept as the run's files` },
    list_directory: { ready: true, note: "Per-run workspace" },
  };
  return TOOL_CATALOG.map((t) => ({
    name: t.name,
    aliases: t.aliases,
    summary: t.summary,
    writes: t.writes,
    ...(notes[t.name] ?? { ready: true, note: "Needs no set-up" }),
  }));
}
