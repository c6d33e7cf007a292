import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";

// The browser tests hold the dark theme's screens to axe's colour rules only (e2e/helpers.ts),
// since the theme changes colours, never which elements a page shows. This keeps it so: no
// `dark:` variant that shows, hides or takes an element out of the accessibility tree.
const ROOT = path.resolve(import.meta.dirname, "../..");
const SHOWING =
  /\bdark:(?:[\w-]+:)*(?:hidden|block|inline|inline-block|inline-flex|flex|grid|inline-grid|contents|table|invisible|visible|collapse|sr-only|not-sr-only|opacity-0)\b/g;

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return /\.(tsx|ts|css)$/.test(e.name) ? [full] : [];
  });
}

function themeVisibility(files: string[]) {
  return files.flatMap((file) =>
    [...fs.readFileSync(file, "utf8").matchAll(SHOWING)].map(
      (m) => `${path.relative(ROOT, file)}: ${m[0]}`,
    ),
  );
}

it("no dark: variant shows or hides an element", () => {
  const files = ["app", "components"].flatMap((d) => sources(path.join(ROOT, d)));
  expect(files.length).toBeGreaterThan(100);
  expect(themeVisibility(files)).toEqual([]);
});

it("finds one where there is", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dark-theme-"));
  const probe = path.join(dir, "probe.tsx");
  fs.writeFileSync(probe, '<img className="block dark:hidden" /><p className="dark:md:sr-only" />');
  try {
    expect(themeVisibility([probe]).map((found) => found.replace(/.*: /, ""))).toEqual([
      "dark:hidden",
      "dark:md:sr-only",
    ]);
  } finally {
    fs.rmSync(dir, { recursive: true });
  }
});
