import { afterEach, describe, expect, it, vi } from "vitest";
import { tokens } from "@/lib/tools/builtin/html-tokens";

// Every "<" of a page starts a tag's search for its ">": the searches share their work, so a page
// costs time in proportion to its length. The former tokenizer ran a backtracking pattern over
// the next 4 KB from every "<" (2 MiB of "<a": about a minute). Counted here, deterministically:
// the characters handed to regular expressions (`test`, `match` and the rest go through `exec`).

afterEach(() => vi.restoreAllMocks());

function kinds(html: string) {
  const count = { text: 0, open: 0, close: 0 };
  for (const t of tokens(html)) count[t.kind]++;
  return count;
}

/** The characters regular expressions were given to read while `html` was tokenized. */
function patternReads(html: string) {
  let read = 0;
  const exec = RegExp.prototype.exec;
  vi.spyOn(RegExp.prototype, "exec").mockImplementation(function (this: RegExp, s: string) {
    read += s.length - (this.global || this.sticky ? this.lastIndex : 0);
    return exec.call(this, s);
  });
  kinds(html);
  vi.restoreAllMocks();
  return read;
}

describe("the HTML tokenizer on hostile pages", () => {
  it.each([
    ["'<a' over and over", "<a".repeat(32 * 1024)],
    ["'<' and a long name", `<${"a".repeat(1023)}`.repeat(64)],
    ["unclosed quotes", `<a "<b '`.repeat(8 * 1024)],
    ["quotes closed, no '>'", `<a "x" <b 'y' `.repeat(4 * 1024)],
  ])("%s: patterns read at most twice the page", (_, html) => {
    expect(patternReads(html)).toBeLessThanOrEqual(2 * html.length);
  });

  it("reads 2 MiB of '<a' (SCRAPE_MAX_BYTES) as text, each '<' on its own", () => {
    expect(kinds("<a".repeat(1024 * 1024))).toEqual({ text: 2 * 1024 * 1024, open: 0, close: 0 });
  });

  it("still finds the tags: quotes hide '>', a tag over 4 KB is text, '<' inside a tag is kept", () => {
    const found = [...tokens(`<a title="x > y" href='/p'>go</a><b ${"c".repeat(5000)}>`)];
    expect(found.slice(0, 3)).toEqual([
      { kind: "open", name: "a", attrs: ` title="x > y" href='/p'`, selfClosing: false },
      { kind: "text", text: "go" },
      { kind: "close", name: "a" },
    ]);
    expect(found[3]).toEqual({ kind: "text", text: "<" });
    expect([...tokens(`<a x="1" <b y='>'>`)]).toEqual([
      { kind: "open", name: "a", attrs: ` x="1" <b y='>'`, selfClosing: false },
    ]);
    // An unclosed quote spoils the tag it opens in, not the next one.
    expect([...tokens(`<a "<b>`)]).toEqual([
      { kind: "text", text: "<" },
      { kind: "text", text: `a "` },
      { kind: "open", name: "b", attrs: "", selfClosing: false },
    ]);
  });
});
