// Where a tag ends: its first ">" outside a quoted value. Every "<" of a page asks, and a hostile
// page is nothing but "<"s whose tags never end, so the searches share their work: a page costs
// time in proportion to its length, however its "<", quotes and ">" are laid out.

const GT = 0x3e;
const DQ = 0x22;
const SQ = 0x27;
const UNKNOWN = 0;

export class TagEnds {
  // The last stretch found free of ">" and quotes: [plainFrom, plainTo). Tags are asked about in
  // page order, so the next one usually starts inside it and is answered without reading again.
  private plainFrom = 0;
  private plainTo = -1;
  // Per quote that opens a value: where the tag it is in ends (+2, so -1 is 1 and 0 is unknown).
  // What follows a quote does not depend on where the tag began, so each is followed once.
  private afterQuote: Int32Array | undefined;

  constructor(private readonly html: string) {}

  /** The first ">", '"' or "'" at or after `from` (the page's length if none). */
  private special(from: number): number {
    const h = this.html;
    let i = from;
    for (; i < h.length; i++) {
      const c = h.charCodeAt(i);
      if (c === GT || c === DQ || c === SQ) break;
    }
    return i;
  }

  /** The ">" that ends a tag whose attributes start at `from`: -1 if none does (a quote left
   * open, or no ">" at all). */
  end(from: number): number {
    const h = this.html;
    if (from < this.plainFrom || from > this.plainTo) {
      this.plainFrom = from;
      this.plainTo = this.special(from);
    }
    const opened: number[] = [];
    let at = this.plainTo;
    let end = -1;
    while (at < h.length) {
      if (h.charCodeAt(at) === GT) {
        end = at;
        break;
      }
      this.afterQuote ??= new Int32Array(h.length); // only pages with quotes in tags need it
      const known = this.afterQuote[at] ?? UNKNOWN;
      if (known !== UNKNOWN) {
        end = known - 2;
        break;
      }
      opened.push(at);
      const close = h.indexOf(h.charAt(at), at + 1);
      if (close < 0) break;
      at = this.special(close + 1);
    }
    for (const quote of opened) if (this.afterQuote) this.afterQuote[quote] = end + 2;
    return end;
  }
}
