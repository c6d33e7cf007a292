import { describe, expect, it } from "vitest";
import { htmlToText } from "@/lib/tools/builtin/html-text";

// A link's text is read back when it closes, to print "text (url)". Links do not nest in HTML:
// an <a> closes the one still open, as a browser does. Nested, each close read back everything
// since its opening: 40,000 unclosed links (680 KB) took over four minutes.
describe("links in page text", () => {
  it("an <a> inside an open one closes it first", () => {
    expect(htmlToText(`<a href="/1">one<a href="/2">two</a> after`, "https://x.test/").text).toBe(
      "one (https://x.test/1)two (https://x.test/2) after",
    );
  });

  it("a page of 100,000 unclosed links reads in one pass", () => {
    const html = `${'<a href="/p">y'.repeat(100_000)}${"</a>".repeat(100_000)}`;
    const { text } = htmlToText(html, "https://x.test/");
    expect(text.match(/y \(https:\/\/x\.test\/p\)/g)).toHaveLength(100_000);
  });
});

// Dropped elements (nav, script…) are skipped to their close; a close tag inside finds the
// element it closes without searching every element opened since (1 MiB of these: minutes).
describe("dropped elements in page text", () => {
  it("a page of 130,000 elements opened inside a nav, closed by other names, reads in one pass", () => {
    const n = 130_000;
    const html = `<p>before</p><nav>${"<i>".repeat(n)}${"</b>".repeat(n)}</nav><p>after</p>`;
    expect(htmlToText(html).text).toBe("before\n\nafter");
  });

  it("a close ends the innermost element of its name and those left open inside it", () => {
    expect(htmlToText("<nav><div><nav><p>x</nav>hidden</div></nav>shown").text).toBe("shown");
  });
});
