import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { POSTGRES_ONLY } from "@/vitest.config";

const ROOT = path.resolve(import.meta.dirname, "../..");

// The embedded suite leaves these files out: each is about PostgreSQL itself, on a server of its
// own, so it would run the same test again there. That holds only while it uses nothing of the
// suite's and starts its own PostgreSQL.
describe("HTTP files run in the PostgreSQL suite only", () => {
  it.each(POSTGRES_ONLY)("%s tests a PostgreSQL of its own, not the suite's", (file) => {
    const source = fs.readFileSync(path.join(ROOT, file), "utf8");
    expect(source).toMatch(/\bownPostgres\(/);
    expect(source).not.toMatch(/\binject\(|\bdbMode\(|TEST_DB|TEST_PG_URL|freshPostgresDatabase/);
  });
});
