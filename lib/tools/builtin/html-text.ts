// A web page as text a model can read: scripts, styles and page furniture (nav, header, footer,
// forms…) dropped, headings kept as Markdown headings, links as "text (url)", list items as
// bullets, entities decoded. Deliberately small: it reads HTML well enough for text, and is not
// a browser (nothing runs, nothing is fetched).

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
const VOID = new Set(["br", "hr", "img", "input", "meta", "link", "area", "base", "col", "wbr"]);

const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ndash: "–",
  mdash: "—",
  hellip: "…",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  laquo: "«",
  raquo: "»",
  bull: "•",
  middot: "·",
  copy: "©",
  reg: "®",
  trade: "™",
  deg: "°",
  euro: "€",
  pound: "£",
  yen: "¥",
  cent: "¢",
  sect: "§",
  para: "¶",
  times: "×",
  divide: "÷",
  plusmn: "±",
  frac12: "½",
  frac14: "¼",
  frac34: "¾",
  eacute: "é",
  egrave: "è",
  ecirc: "ê",
  aacute: "á",
  agrave: "à",
  acirc: "â",
  auml: "ä",
  ouml: "ö",
  uuml: "ü",
  Auml: "Ä",
  Ouml: "Ö",
  Uuml: "Ü",
  szlig: "ß",
  ccedil: "ç",
  ntilde: "ñ",
  oacute: "ó",
  iacute: "í",
  uacute: "ú",
  rarr: "→",
  larr: "←",
  shy: "",
  zwj: "",
  zwnj: "",
};

/** `&amp;`, `&#233;`, `&#x1F600;` and the common named entities; unknown ones stay as written. */
export function decodeEntities(s: string): string {
  return s.replace(
    /&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z][a-z0-9]{1,31});?/gi,
    (whole, ref: string) => {
      if (ref[0] === "#") {
        const code =
          ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : Number(ref.slice(1));
        // NUL, surrogates and beyond Unicode become the replacement character, as browsers do.
        if (!code || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return "\uFFFD";
        return String.fromCodePoint(code);
      }
      return NAMED[ref] ?? NAMED[ref.toLowerCase()] ?? whole;
    },
  );
}

type Token =
  | { kind: "text"; text: string }
  | { kind: "open"; name: string; attrs: string; selfClosing: boolean }
  | { kind: "close"; name: string };

// Tags, comments, doctypes and text, in order. Raw-text elements (script, style…) are read to
// their closing tag, so a "<" inside a script cannot start a tag.
function* tokens(html: string): Generator<Token> {
  const RAW = /^(script|style|textarea|title|noscript|template|xmp)$/;
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf("<", i);
    if (lt < 0) {
      yield { kind: "text", text: html.slice(i) };
      return;
    }
    if (lt > i) yield { kind: "text", text: html.slice(i, lt) };
    if (html.startsWith("<!--", lt)) {
      const end = html.indexOf("-->", lt + 4);
      i = end < 0 ? html.length : end + 3;
      continue;
    }
    const tag = /^<(\/?)([A-Za-z][A-Za-z0-9:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/.exec(
      html.slice(lt, lt + 4096),
    );
    if (!tag) {
      if (/^<[!?]/.test(html.slice(lt, lt + 2))) {
        const end = html.indexOf(">", lt);
        i = end < 0 ? html.length : end + 1;
      } else {
        yield { kind: "text", text: "<" };
        i = lt + 1;
      }
      continue;
    }
    const [whole, slash, rawName = "", attrs = ""] = tag;
    const name = rawName.toLowerCase();
    i = lt + whole.length;
    if (slash) {
      yield { kind: "close", name };
      continue;
    }
    const selfClosing = attrs.trimEnd().endsWith("/") || VOID.has(name);
    yield { kind: "open", name, attrs, selfClosing };
    if (RAW.test(name) && !selfClosing) {
      const close = new RegExp(`</${name}\\s*>`, "i");
      const m = close.exec(html.slice(i));
      const end = m ? i + m.index : html.length;
      yield { kind: "text", text: html.slice(i, end) };
      if (m) yield { kind: "close", name };
      i = m ? end + m[0].length : html.length;
    }
  }
}

function attr(attrs: string, name: string): string | undefined {
  const m = new RegExp(`(?:^|\\s)${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s"'>]+))`, "i").exec(
    attrs,
  );
  const v = m?.[2] ?? m?.[3] ?? m?.[4];
  return v === undefined ? undefined : decodeEntities(v).trim();
}

/** A page's title and readable text; `base` resolves relative link addresses. */
export function htmlToText(html: string, base?: string): { title: string; text: string } {
  const out: string[] = [];
  let title = "";
  let skip = 0; // depth inside dropped elements
  const skipStack: string[] = [];
  let inTitle = false;
  let pre = 0;
  const links: { href?: string; start: number }[] = [];
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
          skip++;
          skipStack.push(name);
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
      } else if (name === "a" && !t.selfClosing)
        links.push({ href: attr(t.attrs, "href"), start: out.length });
      else if (BLOCKS.has(name)) block();
      continue;
    }
    // closing tag
    if (name === "title") {
      inTitle = false;
      continue;
    }
    if (skip) {
      // Unclosed elements inside (a <p> or <li> without its end tag) close with their parent.
      const at = skipStack.lastIndexOf(name);
      if (at >= 0) {
        skipStack.length = at;
        skip = at;
      }
      continue;
    }
    if (name === "a") {
      const link = links.pop();
      const label = link ? out.slice(link.start).join("").trim() : "";
      const href = link?.href && linkTarget(link.href, base);
      if (href && label && href !== label) out.push(` (${href})`);
    } else if (name === "ul" || name === "ol") {
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
