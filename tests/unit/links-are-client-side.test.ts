import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Every in-app link navigates on the client (next/link): a bare <a href="/…"> reloads the whole
// dashboard, losing cached data and scroll. API URLs and downloads are real requests and stay <a>.
const ROOT = path.resolve(import.meta.dirname, "../..");

function tsx(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return tsx(full);
    return e.name.endsWith(".tsx") ? [full] : [];
  });
}

const ANCHOR_TO_APP = /<a\b[^>]*\bhref=(?:"\/(?!api\/|\/)|\{`\/(?!api\/))/g;

describe("links", () => {
  it("no <a href> to an app page: use next/link", () => {
    const offenders = [
      ...tsx(path.join(ROOT, "app")),
      ...tsx(path.join(ROOT, "components")),
    ].flatMap((file) =>
      [...fs.readFileSync(file, "utf8").matchAll(ANCHOR_TO_APP)].map(
        (m) => `${path.relative(ROOT, file)}: ${m[0]}`,
      ),
    );
    expect(offenders).toEqual([]);
  });
});
