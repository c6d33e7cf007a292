import { decodeEntities } from "./html-entities";
import { attr, tokens } from "./html-tokens";

// A web page as text a model can read: scripts, styles and page furniture (nav, header, footer,
// forms…) dropped, headings kept as Markdown headings, links as "text (url)", list items as
// bullets, entities decoded. Deliberately small: it reads HTML well enough for text, and is not
// a browser (nothing runs, nothing is fetched).
//
// Not the html-to-text package (10.0.1, on htmlparser2): it walks the element tree by recursion
// and finds a close tag's element by searching every open one, so the hostile pages of the tests
// overflow the stack — 100,000 unclosed links after 82 s, 130,000 elements opened in a <nav> and
// closed by other names after 335 s — and it reads a link inside an open one as nested.

// Elements dropped with everything inside them.
const DROPPED = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "canvas",
  "iframe",
  "object",
  "nav",
  "footer",
  "aside",
  "form",
  "button",
  "select",
  "dialog",
]);
// Elements that break the text into blocks.
const BLOCKS = new Set([
  "p",
  "div",
  "section",
  "article",
  "main",
  "blockquote",
  "pre",
  "table",
  "tr",
  "ul",
  "ol",
  "dl",
  "dt",
  "dd",
  "figure",
  "figcaption",
  "address",
  "hr",
  "br",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
]);

/**
 * The dropped elements open around the reader, innermost last. Each name's places are kept, so
 * closing one (and every element left open inside it) costs what it removes, not the depth.
 */
class OpenElements {
  private readonly names: string[] = [];
  private readonly places = new Map<string, number[]>();

  get depth() {
    return this.names.length;
  }

  open(name: string) {
    const places = this.places.get(name) ?? [];
    places.push(this.names.length);
    this.places.set(name, places);
    this.names.push(name);
  }

  /** Closes the innermost `name` and everything inside it; nothing when none is open. */
  close(name: string) {
    const at = this.places.get(name)?.at(-1);
    if (at === undefined) return;
    while (this.names.length > at) {
      const inner = this.names.pop();
      if (inner !== undefined) this.places.get(inner)?.pop();
    }
  }
}

/** A page's title and readable text; `base` resolves relative link addresses. */
export function htmlToText(html: string, base?: string): { title: string; text: string } {
  const out: string[] = [];
  let title = "";
  let skip = 0; // depth inside dropped elements
  const dropped = new OpenElements();
  let inTitle = false;
  let pre = 0;
  // The open link, if any: links do not nest in HTML (an <a> closes the one still open), and its
  // text is read back once, at its close, so a page of unclosed links costs one pass.
  let link: { href?: string; start: number } | undefined;
  const closeLink = () => {
    const label = link ? out.slice(link.start).join("").trim() : "";
    const href = link?.href && linkTarget(link.href, base);
    if (href && label && href !== label) out.push(` (${href})`);
    link = undefined;
  };
  let listDepth = 0;
  const block = (prefix = "") => out.push(`\n\n${prefix}`);

  for (const t of tokens(html)) {
    if (t.kind === "text") {
      if (inTitle) {
        title += t.text;
        continue;
      }
      if (skip) continue;
      const text = decodeEntities(t.text);
      out.push(pre ? text : text.replace(/\s+/g, " "));
      continue;
    }
    const name = t.name;
    if (t.kind === "open") {
      if (name === "title" && !skip) {
        inTitle = true;
        continue;
      }
      if (skip || DROPPED.has(name) || hidden(t.attrs)) {
        if (!t.selfClosing) {
          dropped.open(name);
          skip = dropped.depth;
        }
        continue;
      }
      if (/^h[1-6]$/.test(name)) block(`${"#".repeat(Number(name[1]))} `);
      else if (name === "li") out.push(`\n${"  ".repeat(Math.max(0, listDepth - 1))}- `);
      else if (name === "ul" || name === "ol") {
        listDepth++;
        block();
      } else if (name === "br") out.push("\n");
      else if (name === "td" || name === "th") out.push(" | ");
      else if (name === "pre") {
        pre++;
        block();
      } else if (name === "img") {
        const alt = attr(t.attrs, "alt");
        if (alt) out.push(` [image: ${alt}] `);
      } else if (name === "a" && !t.selfClosing) {
        closeLink();
        link = { href: attr(t.attrs, "href"), start: out.length };
      } else if (BLOCKS.has(name)) block();
      continue;
    }
    // closing tag
    if (name === "title") {
      inTitle = false;
      continue;
    }
    if (skip) {
      // Unclosed elements inside (a <p> or <li> without its end tag) close with their parent.
      dropped.close(name);
      skip = dropped.depth;
      continue;
    }
    if (name === "a") closeLink();
    else if (name === "ul" || name === "ol") {
      listDepth = Math.max(0, listDepth - 1);
      block();
    } else if (name === "pre") {
      pre = Math.max(0, pre - 1);
      block();
    } else if (BLOCKS.has(name)) block();
  }
  return { title: decodeEntities(title).replace(/\s+/g, " ").trim(), text: tidy(out.join("")) };
}

// `hidden`, `aria-hidden="true"` or an inline display:none: not shown to a reader either.
function hidden(attrs: string): boolean {
  return (
    /(^|\s)hidden(\s|=|\/|$)/i.test(attrs) ||
    /aria-hidden\s*=\s*["']?true/i.test(attrs) ||
    /style\s*=\s*["'][^"']*display\s*:\s*none/i.test(attrs)
  );
}

// Only real addresses are worth showing: no javascript:, no in-page anchors.
function linkTarget(href: string, base?: string): string | undefined {
  if (!href || href.startsWith("#") || /^(javascript|data|vbscript):/i.test(href)) return undefined;
  try {
    return base ? new URL(href, base).toString() : href;
  } catch {
    return href;
  }
}

// Lines trimmed of trailing spaces, runs of blank lines to one, leading spaces to the list indent.
function tidy(text: string): string {
  return text
    .split("\n")
    .map((l) => l.replace(/[ \t\u00a0]+$/g, "").replace(/^[ \t]+(?=[^ \t-])/, ""))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
