import { type Env, env } from "@/lib/config/env";

// Whether web_search can work, without loading the tool (the crew loader asks, to warn early).

/** What is missing for web_search to work, or undefined when it is configured. */
export function searchSetupProblem(e: Env = env()): string | undefined {
  if (!e.SEARCH_PROVIDER)
    return "web search is not configured: set SEARCH_PROVIDER (serper, tavily, brave or searxng) and SEARCH_API_KEY";
  if (e.SEARCH_PROVIDER === "searxng" && !e.SEARCH_URL)
    return "SEARCH_PROVIDER=searxng needs SEARCH_URL, the SearXNG server's address";
  if (e.SEARCH_PROVIDER !== "searxng" && !e.SEARCH_API_KEY)
    return `SEARCH_PROVIDER=${e.SEARCH_PROVIDER} needs SEARCH_API_KEY`;
  return undefined;
}
