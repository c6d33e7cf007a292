import { describe, expect, it } from "vitest";
import { decodeEntities } from "@/lib/tools/builtin/html-entities";
import { htmlToText } from "@/lib/tools/builtin/html-text";

describe("htmlToText", () => {
  it("keeps the article's headings, paragraphs, lists and links; drops scripts, styles and navigation", () => {
    const html = `<!doctype html><html><head><title>Tide &amp; Time</title>
      <style>body { color: red }</style><script>var x = "<p>not text</p>";</script></head>
      <body><nav><a href="/">Home</a> | <a href="/about">About</a></nav>
      <header><h1>Tides explained</h1></header>
      <main><p>The moon pulls the sea.<br>Twice a day.</p>
      <h2>Why it matters</h2>
      <ul><li>Fishing</li><li>Shipping <a href="/ports">ports</a></li></ul>
      <p hidden>secret</p><div aria-hidden="true">decoration</div>
      <p>Caf&eacute; &#233; &#x1F30A; &lt;b&gt; &unknown; 5&nbsp;m</p>
      <!-- a comment <p>no</p> -->
      <noscript>Enable JS</noscript></main>
      <footer>© Tide Co</footer><form><button>Subscribe</button></form></body></html>`;
    const { title, text } = htmlToText(html, "https://tides.example/guide/");
    expect(title).toBe("Tide & Time");
    expect(text).toBe(
      [
        "# Tides explained",
        "",
        "The moon pulls the sea.",
        "Twice a day.",
        "",
        "## Why it matters",
        "",
        "- Fishing",
        "- Shipping ports (https://tides.example/ports)",
        "",
        "Café é 🌊 <b> &unknown; 5 m",
      ].join("\n"),
    );
  });

  it("survives unclosed elements inside dropped ones, stray '<', and javascript: links", () => {
    const { text } = htmlToText(
      `<nav><ul><li>one<li>two</ul></nav><p>a < b and <a href="javascript:alert(1)">click</a></p>`,
    );
    expect(text).toBe("a < b and click");
  });

  it("reads a page without any markup as its text", () => {
    expect(htmlToText("just   words\n here").text).toBe("just words here");
  });
});

describe("decodeEntities", () => {
  it.each([
    ["&amp;&lt;&gt;&quot;&apos;", `&<>"'`],
    ["&#65;&#x42;&#X43;", "ABC"],
    ["&#0;&#xD800;&#x110000;", "\uFFFD\uFFFD\uFFFD"],
    ["&copy 2026", "© 2026"],
    ["AT&T", "AT&T"],
  ])("%s", (input, output) => {
    expect(decodeEntities(input)).toBe(output);
  });
});
