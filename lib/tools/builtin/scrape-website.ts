import { type Tool, tool } from "ai";
import { z } from "zod";
import { env } from "@/lib/config/env";
import { toolSchema } from "@/lib/tools/tool-schema";
import { aliased } from "./aliased";
import { FetchError, guardedFetch } from "./guarded-http";
import { htmlToText } from "./html-text";

const MAX_REDIRECTS = 5;

/** The page's type, charset-free and lower case ("text/html"). */
function mediaType(header: string | string[] | undefined) {
  const v = Array.isArray(header) ? header[0] : header;
  return (v ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

function decode(body: Buffer, header: string | string[] | undefined): string {
  const v = (Array.isArray(header) ? header[0] : header) ?? "";
  const charset = /charset\s*=\s*"?([\w-]+)/i.exec(v)?.[1] ?? "utf-8";
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}

const TEXT_TYPES =
  /^(text\/plain|text\/markdown|text\/csv|application\/json|application\/[\w.+-]+\+json)$/;
const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)$/;

/**
 * Fetches one web page (http/https, public addresses unless TOOL_ALLOWED_NETWORKS lists the
 * network, every redirect checked again) and returns it as text. What is the site's fault (a 404,
 * a PDF, a page too big) comes back as {error} so the model can try another; only a bug throws.
 */
async function scrape(url: string, signal?: AbortSignal) {
  const e = env();
  const maxBytes = e.SCRAPE_MAX_BYTES;
  let res: Awaited<ReturnType<typeof guardedFetch>>;
  try {
    res = await guardedFetch({
      url,
      timeoutMs: e.SCRAPE_TIMEOUT_SECONDS * 1000,
      maxBytes,
      maxRedirects: MAX_REDIRECTS,
      headers: {
        accept: "text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.8",
      },
      signal,
    });
  } catch (err) {
    if (err instanceof FetchError) return { url, error: err.message };
    throw err;
  }
  const at = { url: res.url, status: res.status };
  if (res.status >= 400) return { ...at, error: `the site answered HTTP ${res.status}` };
  if (res.status >= 300)
    return {
      ...at,
      error: `the site answered HTTP ${res.status} (a redirect without a usable Location)`,
    };
  if (res.tooBig)
    return { ...at, error: `the page is larger than ${maxBytes} bytes (SCRAPE_MAX_BYTES)` };
  const type = mediaType(res.headers["content-type"]) || "text/html";
  const truncated = res.truncated ? { truncated: true } : {};
  if (HTML_TYPES.test(type)) {
    const { title, text } = htmlToText(decode(res.body, res.headers["content-type"]), res.url);
    return { ...at, title, text, ...truncated };
  }
  if (TEXT_TYPES.test(type))
    return { ...at, title: "", text: decode(res.body, res.headers["content-type"]), ...truncated };
  return {
    ...at,
    error: `the page is ${type}, not HTML or text: scrape_website reads only web pages and text`,
  };
}

const scrapeWebsiteInput = toolSchema(
  aliased(
    z.object({ url: z.string().max(2048).describe("The page's address, http:// or https://") }),
    { website_url: "url" },
  ),
);

export const scrapeWebsite = (): Tool =>
  tool({
    description:
      "Fetches a web page (http or https) and returns its title and readable text: scripts, styles and navigation removed, links shown as text (url). Also reads plain text and JSON.",
    // CrewAI's ScrapeWebsiteTool calls it website_url.
    inputSchema: scrapeWebsiteInput,
    execute: ({ url }, { abortSignal }) => scrape(url.trim(), abortSignal),
  });
