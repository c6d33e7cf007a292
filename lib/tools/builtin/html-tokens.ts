import { decodeEntities } from "./html-entities";
import { TagEnds } from "./tag-ends";

// HTML read as a stream of tags and text, for the page text a model reads (./html-text.ts).

const VOID = new Set(["br", "hr", "img", "input", "meta", "link", "area", "base", "col", "wbr"]);

export type Token =
  | { kind: "text"; text: string }
  | { kind: "open"; name: string; attrs: string; selfClosing: boolean }
  | { kind: "close"; name: string };

// A tag from "<" to ">" is at most this long; a longer one is read as text.
const MAX_TAG = 4096;

const isLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isNameChar = (c: number) => isLetter(c) || (c >= 0x30 && c <= 0x3a) || c === 0x2d; // digits, ":" and "-"

type Tag = { slash: boolean; name: string; attrs: string; next: number };

/** The tag that starts at `lt` ("<", an optional "/", a name, attributes, ">"), if one does. */
function tagAt(html: string, lt: number, ends: TagEnds): Tag | undefined {
  const slash = html.charCodeAt(lt + 1) === 0x2f;
  const start = lt + (slash ? 2 : 1);
  if (!isLetter(html.charCodeAt(start))) return undefined;
  const limit = Math.min(html.length, lt + MAX_TAG);
  let nameEnd = start + 1;
  while (nameEnd < limit && isNameChar(html.charCodeAt(nameEnd))) nameEnd++;
  if (nameEnd - lt >= MAX_TAG) return undefined;
  const gt = ends.end(nameEnd);
  if (gt < 0 || gt - lt >= MAX_TAG) return undefined;
  return { slash, name: html.slice(start, nameEnd), attrs: html.slice(nameEnd, gt), next: gt + 1 };
}

// Tags, comments, doctypes and text, in order. Raw-text elements (script, style…) are read to
// their closing tag, so a "<" inside a script cannot start a tag.
export function* tokens(html: string): Generator<Token> {
  const RAW = /^(script|style|textarea|title|noscript|template|xmp)$/;
  const ends = new TagEnds(html);
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
    const tag = tagAt(html, lt, ends);
    if (!tag) {
      const c = html.charAt(lt + 1);
      if (c === "!" || c === "?") {
        const end = html.indexOf(">", lt);
        i = end < 0 ? html.length : end + 1;
      } else {
        yield { kind: "text", text: "<" };
        i = lt + 1;
      }
      continue;
    }
    const { slash, attrs } = tag;
    const name = tag.name.toLowerCase();
    i = tag.next;
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

export function attr(attrs: string, name: string): string | undefined {
  const m = new RegExp(`(?:^|\\s)${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s"'>]+))`, "i").exec(
    attrs,
  );
  const v = m?.[2] ?? m?.[3] ?? m?.[4];
  return v === undefined ? undefined : decodeEntities(v).trim();
}
