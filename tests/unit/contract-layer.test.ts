import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// lib/contract holds the API's wire shapes, one module per area: domain code imports their types,
// lib/api builds the OpenAPI document and the dashboard's client from them. It sits below every
// other folder, so it imports nothing but zod and itself; and nothing in lib/ but lib/api itself
// reaches up into lib/api.
const ROOT = path.resolve(import.meta.dirname, "../..");
const LIB = path.join(ROOT, "lib");

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return /\.tsx?$/.test(e.name) ? [full] : [];
  });
}

const importsOf = (file: string) =>
  [...fs.readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)].map(
    (m) => m[1] as string,
  );

describe("the contract layer", () => {
  it("lib/contract imports only zod and its own modules", () => {
    const offenders = sources(path.join(LIB, "contract")).flatMap((f) =>
      importsOf(f)
        .filter((i) => i !== "zod" && !/^\.\/[\w-]+$/.test(i))
        .map((i) => `${path.relative(ROOT, f)} → ${i}`),
    );
    expect(offenders).toEqual([]);
  });

  it("no other folder of lib/ imports lib/api", () => {
    const offenders = sources(LIB)
      .filter((f) => !f.startsWith(path.join(LIB, "api") + path.sep))
      .flatMap((f) =>
        importsOf(f)
          .filter((i) => i.startsWith("@/lib/api"))
          .map((i) => `${path.relative(ROOT, f)} → ${i}`),
      );
    expect(offenders).toEqual([]);
  });
});
