// HTML character references, decoded for the page text a model reads (./html-text.ts).

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
      // Own names only: a page's `&constructor;` is text, not Object.prototype's function.
      const name = Object.hasOwn(NAMED, ref) ? ref : ref.toLowerCase();
      return (Object.hasOwn(NAMED, name) && NAMED[name]) || whole;
    },
  );
}
