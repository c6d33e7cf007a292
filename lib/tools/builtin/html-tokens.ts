import { decodeEntities } from "./html-entities";

// HTML read as a stream of tags and text, for the page text a model reads (./html-text.ts).

const VOID = new Set(["br", "hr", "img", "input", "meta", "link", "area", "base", "col", "wbr"]);

export type Token =
  | { kind: "text"; text: string }
  | { kind: "open"; name: string; attrs: string; selfClosing: boolean }
  | { kind: "close"; name: string };

// Tags, comments, doctypes and text, in order. Raw-text elements (script, style…) are read to
// their closing tag, so a "<" inside a script cannot start a tag.
export function* tokens(html: string): Generator<Token> {
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

export function attr(attrs: string, name: string): string | undefined {
  const m = new RegExp(`(?:^|\\s)${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s"'>]+))`, "i").exec(
    attrs,
  );
  const v = m?.[2] ?? m?.[3] ?? m?.[4];
  return v === undefined ? undefined : decodeEntities(v).trim();
}
