import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "@/components/markdown";
import {
  boundMarkdown,
  MARKDOWN_MAX_CHARS,
  MARKDOWN_MAX_CONTAINERS,
  MARKDOWN_MAX_DELIMITERS,
  MARKDOWN_MAX_DEPTH,
} from "@/lib/format/markdown-budget";

// Markdown parsing costs far more than the text's length (emphasis and link marks, list items)
// and recurses with nesting: stored text (descriptions, outputs) is formatted only up to a
// budget, and the rest is shown as it is.
describe("boundMarkdown", () => {
  it("formats ordinary text whole", () => {
    const text = "# Title\n\nSome *emphasis* and a [link](https://example.com).\n\n> a quote\n";
    expect(boundMarkdown(text)).toEqual({ markdown: text, plain: "" });
  });

  it("formats at most MARKDOWN_MAX_CHARS, cut at a line's end", () => {
    const line = `${"word ".repeat(19)}end\n`;
    const text = line.repeat(2_000);
    const { markdown, plain } = boundMarkdown(text);
    expect(markdown.length).toBeLessThanOrEqual(MARKDOWN_MAX_CHARS);
    expect(markdown.length).toBeGreaterThan(MARKDOWN_MAX_CHARS - line.length);
    expect(markdown.endsWith("\n")).toBe(true);
    expect(markdown + plain).toBe(text);
  });

  it("stops formatting past MARKDOWN_MAX_DELIMITERS emphasis and link marks", () => {
    const text = "*a".repeat(10_000);
    expect(boundMarkdown(text)).toEqual({ markdown: "", plain: text });
    const lines = "[a](\n".repeat(2_000);
    const split = boundMarkdown(lines);
    expect(split.markdown.length / "[a](\n".length).toBeLessThanOrEqual(
      MARKDOWN_MAX_DELIMITERS / 3,
    );
    expect(split.markdown + split.plain).toBe(lines);
  });

  it("stops formatting past MARKDOWN_MAX_CONTAINERS list items and quotes", () => {
    const text = "- a\n".repeat(4_000);
    const split = boundMarkdown(text);
    expect(split.markdown).toBe("- a\n".repeat(MARKDOWN_MAX_CONTAINERS));
    expect(split.markdown + split.plain).toBe(text);
  });

  it("keeps ordinary formatting whole", () => {
    const text = "Some **bold** and _italic_ text with [a link](x).\n\n".repeat(100);
    expect(boundMarkdown(text).plain).toBe("");
  });

  it("stops at a line nested deeper than MARKDOWN_MAX_DEPTH", () => {
    const deep = `intro\n\n${">".repeat(3_000)} a\n`;
    expect(boundMarkdown(deep)).toEqual({
      markdown: "intro\n\n",
      plain: `${">".repeat(3_000)} a\n`,
    });
    const nested = Array.from({ length: 400 }, (_, i) => `${"  ".repeat(i)}- a`).join("\n");
    const split = boundMarkdown(nested);
    expect(split.markdown.split("\n").length).toBeLessThanOrEqual(MARKDOWN_MAX_DEPTH + 1);
    const shallow = `${"> ".repeat(MARKDOWN_MAX_DEPTH)}a\n`;
    expect(boundMarkdown(shallow).plain).toBe("");
  });
});

describe("<Markdown>", () => {
  it("renders 3,000 nested quotes without overflowing the stack, the text kept", () => {
    const html = renderToString(createElement(Markdown, { text: `${">".repeat(3_000)} deep` }));
    expect(html).toContain("deep");
  });

  it("renders past the budget as plain text, with a note saying so", () => {
    const html = renderToString(createElement(Markdown, { text: "*a".repeat(10_000) }));
    expect(html).not.toContain("<em>");
    expect(html).toContain("*a*a*a");
    expect(html).toMatch(/shown as plain text/);
  });
});
