import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Domain code throws lib/errors.ts and never reaches into routing: lib/api/route.ts composes
// the domains (crews, deployments, auth), so a domain importing it would tie them into one knot.
const ROOT = path.resolve(import.meta.dirname, "../..");

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return /\.tsx?$/.test(e.name) ? [full] : [];
  });
}

const importsOf = (file: string) =>
  [...fs.readFileSync(file, "utf8").matchAll(/from "([^"]+)"/g)].map((m) => m[1] as string);

describe("import boundaries", () => {
  it("the error module stands alone", () => {
    expect(importsOf(path.join(ROOT, "lib/errors.ts"))).toEqual(["zod"]);
  });

  it("no domain module imports the route builders or the problem renderer", () => {
    const offenders = sources(path.join(ROOT, "lib"))
      // The plumbing itself, and the builder that composes it with the domains.
      .filter((f) => !f.includes(`${path.sep}lib${path.sep}http${path.sep}`))
      .filter((f) => path.relative(ROOT, f) !== path.join("lib", "api", "route.ts"))
      .flatMap((f) =>
        importsOf(f)
          .filter((i) => i === "@/lib/api/route" || i === "@/lib/http/problem")
          .map((i) => `${path.relative(ROOT, f)} → ${i}`),
      );
    expect(offenders).toEqual([]);
  });
});
