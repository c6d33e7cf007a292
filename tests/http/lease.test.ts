import { afterAll, describe, expect, inject, it } from "vitest";
import { call, crewClient } from "../support/api";
import {
  FIXTURE_CREWS,
  freshPostgresDatabase,
  type Proc,
  startServer,
  TEST_CREW_TOKEN,
  tempDir,
} from "../support/harness";

// /status answers the same whatever the id's spelling. (That a run claimed while a lease renewal
// is in flight is not dropped by its own worker is tests/unit/lease-renewal-race.test.ts: a
// forced interleaving, not a 150 ms lease on a machine that may be busy.)
const procs: Proc[] = [];
afterAll(async () => {
  await Promise.all(procs.map((p) => p.kill("SIGKILL")));
});

describe("ids", () => {
  it("a cached status read by an upper-case id is invalidated like the lower-case one", async () => {
    const databaseUrl = inject("db") === "postgres" ? await freshPostgresDatabase() : undefined;
    const web = await startServer({
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      DATA_DIR: tempDir("lease"),
      CREWS_DIR: FIXTURE_CREWS,
      CREW_TOKEN: TEST_CREW_TOKEN,
      OFFLINE_MODEL_DELAY_MS: "0",
    });
    procs.push(web);
    // A reviewed run stands still at each review, so the cached answer is known, whatever the
    // machine's speed: read it by the upper-case id, change the run, read it again.
    const crew = crewClient(web.url, "review", TEST_CREW_TOKEN);
    const id = await crew.start({ subject: "spelling" });
    await crew.waitFor(id, (s) => s.status === "pending_human_input");
    const upper = () =>
      call(web.url, "GET", `/api/crews/review/status/${id.toUpperCase()}`, {
        token: TEST_CREW_TOKEN,
      });
    expect((await upper()).json.pending_human_input.task_id).toBe("draft"); // now cached
    const r = await crew.resume({
      execution_id: id,
      task_id: "draft",
      human_feedback: "fine",
      is_approve: true,
    });
    expect(r.json.status).toBe("resumed");
    await crew.waitFor(
      id,
      (s) => s.status === "pending_human_input" && s.pending_human_input.task_id === "polish",
    );
    expect((await upper()).json.pending_human_input.task_id).toBe("polish");
  });
});
