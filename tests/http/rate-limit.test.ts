import { afterAll, describe, expect, inject, it } from "vitest";
import { crewClient } from "../support/api";
import {
  FIXTURE_CREWS,
  freshPostgresDatabase,
  type Proc,
  startServer,
  TEST_CREW_TOKEN,
  tempDir,
} from "../support/harness";

// Rate limits per token: a server of its own with a tiny limit.
const mode = inject("db");
const procs: Proc[] = [];
afterAll(async () => {
  await Promise.all(procs.map((p) => p.kill()));
});

describe("rate limits", () => {
  it("answers 429 with Retry-After past the limit, per token", async () => {
    const env = {
      CREWS_DIR: FIXTURE_CREWS,
      CREW_TOKEN: TEST_CREW_TOKEN,
      RATE_LIMIT_PER_MINUTE: "5",
      DATA_DIR: tempDir("ratelimit"),
    };
    const web = await startServer(
      mode === "postgres"
        ? { ...env, DATABASE_URL: (await freshPostgresDatabase()) as string }
        : env,
    );
    procs.push(web);
    const client = crewClient(web.url, "brief", TEST_CREW_TOKEN);
    for (let i = 0; i < 5; i++) expect((await client.inputs()).status).toBe(200);
    const refused = await client.inputs();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toContain("application/problem+json");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });
});
