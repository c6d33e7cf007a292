import { type Tool, tool } from "ai";
import { z } from "zod";
import { type Env, env } from "@/lib/config/env";
import { searchSetupProblem } from "@/lib/crew/search-setup";
import { toolSchema } from "@/lib/tools/tool-schema";
import { fieldOf } from "@/lib/util/field";
import { aliased } from "./aliased";
import { FetchError, guardedFetch } from "./guarded-http";

// web_search through the provider the deployment configures (SEARCH_PROVIDER), each spoken in
// its own wire format and answered in one shape: {query, results: [{title, url, snippet}]}.

export type SearchProvider = NonNullable<Env["SEARCH_PROVIDER"]>;
export type SearchResult = { title: string; url: string; snippet: string };

const DEFAULT_URLS: Record<SearchProvider, string | undefined> = {
  serper: "https://google.serper.dev",
  tavily: "https://api.tavily.com",
  brave: "https://api.search.brave.com",
  searxng: undefined, // always someone's own server
};

const SEARCH_TIMEOUT_MS = 20_000;
const SEARCH_MAX_BYTES = 2 * 1024 * 1024;

type Wire = {
  path: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: unknown;
  query?: Record<string, string>;
};

/** The request each provider expects (its public API's documented form). */
function request(provider: SearchProvider, q: string, n: number, key: string | undefined): Wire {
  const json = { "content-type": "application/json", accept: "application/json" };
  switch (provider) {
    case "serper": // POST /search, X-API-KEY, {q, num} → organic[{title, link, snippet}]
      return {
        path: "/search",
        method: "POST",
        headers: { ...json, "x-api-key": key ?? "" },
        body: { q, num: n },
      };
    case "tavily": // POST /search, Bearer key, {query, max_results} → results[{title, url, content}]
      return {
        path: "/search",
        method: "POST",
        headers: { ...json, authorization: `Bearer ${key ?? ""}` },
        body: { query: q, max_results: n },
      };
    case "brave": // GET /res/v1/web/search?q=&count=, X-Subscription-Token → web.results[…]
      return {
        path: "/res/v1/web/search",
        method: "GET",
        headers: { accept: "application/json", "x-subscription-token": key ?? "" },
        query: { q, count: String(n) },
      };
    case "searxng": // GET /search?q=&format=json → results[{title, url, content}]
      return {
        path: "/search",
        method: "GET",
        headers: {
          accept: "application/json",
          ...(key ? { authorization: `Bearer ${key}` } : {}),
        },
        query: { q, format: "json" },
      };
  }
}

const Item = z.object({
  title: z.string().optional().catch(undefined),
  link: z.string().optional().catch(undefined),
  url: z.string().optional().catch(undefined),
  snippet: z.string().optional().catch(undefined),
  content: z.string().optional().catch(undefined),
  description: z.string().optional().catch(undefined),
});
const Items = z.array(z.unknown()).catch([]);

/** The provider's answer as results; unknown fields ignored, items without an address dropped. */
export function normalise(provider: SearchProvider, body: unknown, n: number): SearchResult[] {
  const raw =
    provider === "serper"
      ? Items.parse(fieldOf(body, "organic"))
      : provider === "brave"
        ? Items.parse(fieldOf(fieldOf(body, "web"), "results"))
        : Items.parse(fieldOf(body, "results"));
  return raw
    .flatMap((r) => {
      const p = Item.safeParse(r);
      if (!p.success) return [];
      const i = p.data;
      const url = i.link ?? i.url;
      if (!url) return [];
      const snippet = (i.snippet ?? i.content ?? i.description ?? "").replace(/<\/?strong>/g, "");
      return [{ title: i.title ?? url, url, snippet }];
    })
    .slice(0, n);
}

/** One search; errors (not configured, refused, the provider's failure) come back as {error}. */
export async function search(query: string, n: number, signal?: AbortSignal) {
  const e = env();
  const problem = searchSetupProblem(e);
  const provider = e.SEARCH_PROVIDER;
  if (problem || !provider) return { query, error: problem ?? "web search is not configured" };
  const key = e.SEARCH_API_KEY;
  const wire = request(provider, query, n, key);
  const where = e.SEARCH_URL ?? DEFAULT_URLS[provider];
  if (!where) return { query, error: "web search has no SEARCH_URL" };
  const base = new URL(where);
  const url = new URL(base.pathname.replace(/\/+$/, "") + wire.path, base);
  for (const [k, v] of Object.entries(wire.query ?? {})) url.searchParams.set(k, v);
  // The key may be echoed back by a provider or a proxy: never let it reach the model.
  const hide = (s: string) => (key ? s.split(key).join("[SEARCH_API_KEY]") : s);
  let res: Awaited<ReturnType<typeof guardedFetch>>;
  try {
    res = await guardedFetch({
      url: url.toString(),
      method: wire.method,
      headers: wire.headers,
      body: wire.body === undefined ? undefined : JSON.stringify(wire.body),
      timeoutMs: SEARCH_TIMEOUT_MS,
      maxBytes: SEARCH_MAX_BYTES,
      signal,
    });
  } catch (err) {
    if (err instanceof FetchError) return { query, error: hide(`${provider}: ${err.message}`) };
    throw err;
  }
  if (res.status === 401 || res.status === 403)
    return {
      query,
      error: `${provider} refused the key (HTTP ${res.status}): check SEARCH_API_KEY`,
    };
  if (res.status === 429)
    return { query, error: `${provider} says too many requests (HTTP 429): try again later` };
  if (res.status < 200 || res.status >= 300)
    return { query, error: `${provider} answered HTTP ${res.status}` };
  let body: unknown;
  try {
    body = JSON.parse(res.body.toString("utf8"));
  } catch {
    return { query, error: `${provider} answered with something that is not JSON` };
  }
  const results = normalise(provider, body, n).map((r) => ({
    title: hide(r.title),
    url: hide(r.url),
    snippet: hide(r.snippet),
  }));
  return { query, results };
}

const webSearchInput = toolSchema(
  aliased(
    z.object({
      query: z.string().min(1).max(400).describe("What to search for"),
      max_results: z
        .number()
        .int()
        .min(1)
        .max(20)
        .optional()
        .describe("How many results (default 5)"),
    }),
    { search_query: "query" },
  ),
);

export const webSearch = (): Tool =>
  tool({
    description:
      "Searches the web and returns the top results, each with its title, address and a snippet. Read a result in full with scrape_website.",
    // CrewAI's search tools call it search_query.
    inputSchema: webSearchInput,
    execute: ({ query, max_results }, { abortSignal }) =>
      search(query.trim(), max_results ?? 5, abortSignal),
  });
