import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The README stays a newcomer's first five minutes and links every page of docs/, and docs/
// stays whole: every variable the code reads is in docs/configuration.md, and every relative
// link lands on a file and heading.
const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (rel: string) => fs.readFileSync(path.join(ROOT, rel), "utf8");

// The code that runs in production; tests/, bench/ and e2e/ read variables of their own.
const SOURCE_DIRS = ["app", "lib", "components", "scripts"];
const SOURCE_FILES = ["proxy.ts", "instrumentation.ts", "next.config.js"];
const ENV_SCHEMA = "lib/config/env.ts";

const NAME = "[A-Z][A-Z0-9_]*";

function walk(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return walk(rel);
    return /\.(tsx?|[cm]?js)$/.test(e.name) ? [rel] : [];
  });
}

const sourceFiles = () => [
  ...SOURCE_DIRS.flatMap(walk),
  ...SOURCE_FILES.filter((f) => fs.existsSync(path.join(ROOT, f))),
];

/** `X.NAME` and `X["NAME"]` for an expression X (a regex source). */
const memberReads = (target: string) =>
  new RegExp(`${target}(?:\\.(${NAME})\\b|\\[\\s*["'\`](${NAME})["'\`]\\s*\\])`, "g");

/** The environment variables a source file reads by name. */
function envVarsRead(text: string): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(memberReads("process\\.env"))) names.push(m[1] ?? m[2] ?? "");
  // const { A, B: b, C = "x" } = process.env
  for (const m of text.matchAll(/\{([^{}]*)\}\s*=\s*process\.env\b/g))
    for (const part of (m[1] ?? "").split(",")) names.push(part.trim().split(/[\s:=]/)[0] ?? "");
  // A name standing for process.env (`vars: Vars = process.env`, `e = process.env`): its reads.
  for (const m of text.matchAll(/(\w+)\s*(?::[^=;\n]*)?=\s*process\.env\b(?![.[\w])/g))
    for (const r of text.matchAll(memberReads(`\\b${m[1]}`))) names.push(r[1] ?? r[2] ?? "");
  return names.filter((n) => new RegExp(`^${NAME}$`).test(n));
}

/** The keys of the environment schema: every setting parsed at start-up. */
function schemaVars(): string[] {
  return [...read(ENV_SCHEMA).matchAll(new RegExp(`^\\s+(${NAME})\\s*:`, "gm"))].map(
    (m) => m[1] as string,
  );
}

function envVarsInCode(): Map<string, string> {
  const found = new Map<string, string>();
  for (const name of schemaVars()) found.set(name, ENV_SCHEMA);
  for (const file of sourceFiles())
    for (const name of envVarsRead(read(file))) if (!found.has(name)) found.set(name, file);
  return found;
}

const markdownFiles = () => [
  "README.md",
  ...fs
    .readdirSync(path.join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** The lines outside fenced code blocks (those inside become blank). */
function outsideFences(markdown: string): string {
  let fenced = false;
  return markdown
    .split("\n")
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        fenced = !fenced;
        return "";
      }
      return fenced ? "" : line;
    })
    .join("\n");
}

/** The prose of a markdown file: outside code blocks, with inline code blanked out. */
const prose = (markdown: string) => outsideFences(markdown).replace(/`[^`\n]*`/g, "``");

/** GitHub's anchor for a heading: lowercase, punctuation other than - and _ dropped, spaces → -. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of outsideFences(read(file)).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(m[1] ?? "");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n ? `${base}-${n}` : base);
  }
  return anchors;
}

/** Relative link targets of a markdown file: inline links, images and reference definitions. */
function relativeLinks(markdown: string): string[] {
  const text = prose(markdown);
  const targets = [
    ...[...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] ?? ""),
    ...[...text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1] ?? ""),
  ];
  return targets.filter((t) => t && !/^([a-z][a-z0-9+.-]*:|\/\/)/i.test(t));
}

/** What is wrong with a link from `from` to `target`, or undefined when it resolves. */
function brokenLink(from: string, target: string): string | undefined {
  const [file = "", anchor] = target.split("#", 2);
  const to = file ? path.normalize(path.join(path.dirname(from), decodeURI(file))) : from;
  if (!fs.existsSync(path.join(ROOT, to))) return `${to} does not exist`;
  if (anchor === undefined || !to.endsWith(".md")) return undefined;
  return anchorsOf(to).has(decodeURIComponent(anchor))
    ? undefined
    : `${to} has no heading #${anchor}`;
}

describe("the docs", () => {
  it("document every environment variable the code reads, in docs/configuration.md", () => {
    const found = envVarsInCode();
    // The schema is read as text: finding few keys means it moved, not that all is documented.
    expect(schemaVars().length).toBeGreaterThan(50);
    const config = read("docs/configuration.md");
    const missing = [...found]
      .filter(([name]) => !new RegExp(`(?<![A-Za-z0-9_])${name}(?![A-Za-z0-9_])`).test(config))
      .map(([name, file]) => `${name} (read in ${file})`);
    expect(missing).toEqual([]);
  });

  it("link only to files and headings that exist", () => {
    const broken = markdownFiles().flatMap((file) =>
      relativeLinks(read(file)).flatMap((target) => {
        const why = brokenLink(file, target);
        return why ? [`${file}: (${target}) — ${why}`] : [];
      }),
    );
    expect(broken).toEqual([]);
  });

  it("are each linked from the README", () => {
    const linked = new Set(relativeLinks(read("README.md")).map((t) => t.split("#")[0]));
    expect(markdownFiles().filter((f) => f !== "README.md" && !linked.has(f))).toEqual([]);
  });

  it("keep the README to at most 200 lines", () => {
    expect(read("README.md").trimEnd().split("\n").length).toBeLessThanOrEqual(200);
  });
});

describe("the docs checks themselves", () => {
  it("find variables read by name, by destructuring and through a stand-in for process.env", () => {
    const code = [
      "const a = process.env.ALPHA;",
      'const b = process.env["BETA"];',
      "const { GAMMA, DELTA: d, EPSILON = '1' } = process.env;",
      "function f(vars: Record<string, string | undefined> = process.env) { return vars.ZETA; }",
      "const dynamic = process.env[name];",
    ].join("\n");
    expect(envVarsRead(code).sort()).toEqual([
      "ALPHA",
      "BETA",
      "DELTA",
      "EPSILON",
      "GAMMA",
      "ZETA",
    ]);
  });

  it("slug headings as GitHub does and skip links in code", () => {
    expect(slug("How a crew works: process, parallel tasks, delegation, limits")).toBe(
      "how-a-crew-works-process-parallel-tasks-delegation-limits",
    );
    expect(slug("Who reviews: a task's review block")).toBe("who-reviews-a-tasks-review-block");
    expect(slug("`max_rpm` and MCP_IDLE")).toBe("max_rpm-and-mcp_idle");
    const md = "[a](x.md#y) ![i](s.png) `[no](z.md)` [w](https://e.com)\n```\n[no](q.md)\n```\n";
    expect(relativeLinks(md)).toEqual(["x.md#y", "s.png"]);
  });
});
