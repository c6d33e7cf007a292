import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Next renders a page beside its layout, so a sign-in check in a layout does not keep a page's
// data in (tests/http/signed-out-crawl.test.ts shows it from outside). Every dashboard page and
// every generateMetadata asks requireUser itself, before anything else.
const DASHBOARD = path.resolve(import.meta.dirname, "../../app/(dashboard)");

function pages(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return pages(full);
    return e.name === "page.tsx" || e.name === "layout.tsx" ? [full] : [];
  });
}

// The body of each exported async function, up to the next top-level export.
function exportedFunctions(source: string) {
  return [...source.matchAll(/export (?:default )?async function (\w+)[\s\S]*?(?=\nexport |$)/g)];
}

describe("every dashboard page checks who is asking", () => {
  const files = pages(DASHBOARD);

  it("finds the pages", () => {
    expect(files.length).toBeGreaterThanOrEqual(10);
  });

  for (const file of files) {
    const name = path.relative(DASHBOARD, file);
    it(name, () => {
      const source = fs.readFileSync(file, "utf8");
      const fns = exportedFunctions(source);
      expect(fns.length, "a page is an async server component").toBeGreaterThan(0);
      for (const [body, fn] of fns) {
        expect(body, `${fn} calls requireUser()`).toMatch(/await requireUser\(/);
        // …before it touches the database or the crews.
        const check = body.indexOf("requireUser(");
        for (const read of ["getDb(", "crewsFor(", "crewForPage(", "currentUser("]) {
          const at = body.indexOf(read);
          if (at >= 0) expect(at, `${fn}: ${read} after requireUser`).toBeGreaterThan(check);
        }
      }
    });
  }
});
