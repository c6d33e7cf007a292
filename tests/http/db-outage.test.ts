import { afterAll, describe, expect, it } from "vitest";
import { crewClient, expectProblem } from "../support/api";
import {
  FIXTURE_CREWS,
  ownPostgres,
  type Proc,
  startServer,
  TEST_CREW_TOKEN,
  tempDir,
} from "../support/harness";

// PostgreSQL goes away and comes back: the API answers 503 with Retry-After meanwhile (never a
// hang, never a 500 with a stack), and everything works again without a restart.
const pg = ownPostgres();
let web: Proc | undefined;
afterAll(async () => {
  await web?.kill();
  pg.destroy();
});

describe("the database going away", () => {
  it("503 with Retry-After while it is down, back to normal when it returns", async () => {
    const server = await startServer({
      CREWS_DIR: FIXTURE_CREWS,
      CREW_TOKEN: TEST_CREW_TOKEN,
      DATA_DIR: tempDir("outage"),
      DATABASE_URL: pg.url,
      OFFLINE_MODEL_DELAY_MS: "0",
    });
    web = server;
    const client = crewClient(server.url, "brief", TEST_CREW_TOKEN);
    const id = await client.start({ topic: "a", audience: "b" });
    await client.waitFor(id, (s) => s.status === "completed");

    pg.stop();
    const started = Date.now();
    const status = await client.status(id);
    expectProblem(status, 503);
    expect(status.headers.get("retry-after")).toBe("5");
    expectProblem(await client.kickoff({ inputs: { topic: "a", audience: "b" } }), 503);
    expect(Date.now() - started).toBeLessThan(60_000); // answered, not hung
    expect((await client.inputs()).status).toBe(200); // what needs no database still works

    pg.start();
    const again = await client.start({ topic: "after", audience: "outage" });
    const done = await client.waitFor(again, (s) => s.status === "completed");
    expect(done.result).toContain("after");
    expect((await client.status(id)).status).toBe(200);
  });
});
