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
  const reader = new PageReader(base);
  for (const t of tokens(html)) {
    if (t.kind === "text") reader.text(t.text);
    else if (t.kind === "open") reader.open(t.name, t.attrs, t.selfClosing);
    else reader.close(t.name);
  }
  return reader.result();
}

/** What has been read of a page so far, and where the reader is in it. */
class PageReader {
  private readonly out: string[] = [];
  private title = "";
  private skip = 0; // depth inside dropped elements
  private readonly dropped = new OpenElements();
  private inTitle = false;
  private pre = 0;
  // The open link, if any: links do not nest in HTML (an <a> closes the one still open), and its
  // text is read back once, at its close, so a page of unclosed links costs one pass.
  private link: { href?: string; start: number } | undefined;
  private listDepth = 0;

  constructor(private readonly base?: string) {}

  text(text: string) {
    if (this.inTitle) this.title += text;
    else if (!this.skip) {
      const decoded = decodeEntities(text);
      this.out.push(this.pre ? decoded : decoded.replace(/\s+/g, " "));
    }
  }

  open(name: string, attrs: string, selfClosing: boolean) {
    if (name === "title" && !this.skip) {
      this.inTitle = true;
      return;
    }
    if (this.skip || DROPPED.has(name) || hidden(attrs)) {
      if (!selfClosing) {
        this.dropped.open(name);
        this.skip = this.dropped.depth;
      }
      return;
    }
    if (/^h[1-6]$/.test(name)) this.block(`${"#".repeat(Number(name[1]))} `);
    else if (name === "li") this.out.push(`\n${"  ".repeat(Math.max(0, this.listDepth - 1))}- `);
    else if (name === "ul" || name === "ol") {
      this.listDepth++;
      this.block();
    } else if (name === "br") this.out.push("\n");
    else if (name === "td" || name === "th") this.out.push(" | ");
    else if (name === "pre") {
      this.pre++;
      this.block();
    } else if (name === "img") {
      const alt = attr(attrs, "alt");
      if (alt) this.out.push(` [image: ${alt}] `);
    } else if (name === "a" && !selfClosing) {
      this.closeLink();
      this.link = { href: attr(attrs, "href"), start: this.out.length };
    } else if (BLOCKS.has(name)) this.block();
  }

  close(name: string) {
    if (name === "title") {
      this.inTitle = false;
      return;
    }
    if (this.skip) {
      // Unclosed elements inside (a <p> or <li> without its end tag) close with their parent.
      this.dropped.close(name);
      this.skip = this.dropped.depth;
      return;
    }
    if (name === "a") this.closeLink();
    else if (name === "ul" || name === "ol") {
      this.listDepth = Math.max(0, this.listDepth - 1);
      this.block();
    } else if (name === "pre") {
      this.pre = Math.max(0, this.pre - 1);
      this.block();
    } else if (BLOCKS.has(name)) this.block();
  }

  result() {
    return {
      title: decodeEntities(this.title).replace(/\s+/g, " ").trim(),
      text: tidy(this.out.join("")),
    };
  }

  private block(prefix = "") {
    this.out.push(`\n\n${prefix}`);
  }

  private closeLink() {
    const label = this.link ? this.out.slice(this.link.start).join("").trim() : "";
    const href = this.link?.href && linkTarget(this.link.href, this.base);
    if (href && label && href !== label) this.out.push(` (${href})`);
    this.link = undefined;
  }
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
