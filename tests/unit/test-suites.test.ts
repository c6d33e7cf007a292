import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REQUEST_ONLY, SAME_ON_BOTH_DATABASES } from "@/vitest.config";

const ROOT = path.resolve(import.meta.dirname, "../..");

// The embedded suite leaves these files out as repeats of the PostgreSQL suite's run: that holds
// only while nothing in them depends on which database the suite runs.
describe("HTTP files run once, in the PostgreSQL suite's run only", () => {
  it.each(SAME_ON_BOTH_DATABASES)("%s uses neither the suite's server nor its database", (file) => {
    const source = fs.readFileSync(path.join(ROOT, file), "utf8");
    expect(source).not.toMatch(/\binject\(|\bdbMode\(|TEST_DB|TEST_PG_URL|freshPostgresDatabase/);
  });
});

// The PostgreSQL suite leaves these out: they must not be about the database.
describe("HTTP files run in the embedded suite only", () => {
  it.each(REQUEST_ONLY)("%s asks nothing of the database it runs on", (file) => {
    const source = fs.readFileSync(path.join(ROOT, file), "utf8");
    expect(source).not.toMatch(
      /\bdbMode\(|TEST_DB|TEST_PG_URL|freshPostgresDatabase|queryAs|getDb/,
    );
  });
});
