import { afterAll, describe, expect, inject, it } from "vitest";
import { call, crewClient, type Json } from "../support/api";
import {
  FIXTURE_CREWS,
  freshPostgresDatabase,
  type Proc,
  startServer,
  TEST_CREW_TOKEN,
  tempDir,
} from "../support/harness";

// Leases under load: the worker renews often while it keeps claiming new runs. A run claimed
// while a renewal is in flight must not be taken for lost (it would stop mid-task and wait out
// its lease before another attempt). And /status answers the same whatever the id's spelling.
const procs: Proc[] = [];
afterAll(async () => {
  await Promise.all(procs.map((p) => p.kill("SIGKILL")));
});

describe("leases and ids", () => {
  it("no run is dropped by its own worker while it claims others", async () => {
    const databaseUrl = inject("db") === "postgres" ? await freshPostgresDatabase() : undefined;
    const web = await startServer({
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      DATA_DIR: tempDir("lease"),
      CREWS_DIR: FIXTURE_CREWS,
      CREW_TOKEN: TEST_CREW_TOKEN,
      OFFLINE_MODEL_DELAY_MS: "40",
      WORKER_LEASE_MS: "150", // renewed every 50 ms
      WORKER_POLL_MS: "10",
      WORKER_CONCURRENCY: "8",
    });
    procs.push(web);
    const crew = crewClient(web.url, "three-step", TEST_CREW_TOKEN);
    const ids = await Promise.all(
      Array.from({ length: 40 }, (_, i) => crew.start({ job: `j${i}` })),
    );
    for (const id of ids) {
      const done = await crew.waitFor(
        id,
        (s) => s.status === "completed" || s.status === "error",
        60_000,
      );
      expect(done.status).toBe("completed");
      // Upper case: the same execution, the same (fresh) answer.
      const upper = await call(web.url, "GET", `/api/crews/three-step/status/${id.toUpperCase()}`, {
        token: TEST_CREW_TOKEN,
      });
      expect(upper.json.status).toBe("completed");
    }
    const recovered: string[] = [];
    for (const id of ids) {
      const events = (await crew.events(id)).json.events as Json[];
      if (events.some((e) => e.type === "execution_recovered")) recovered.push(id);
    }
    expect(recovered).toEqual([]);
  });

  it("a cached status read by an upper-case id is invalidated like the lower-case one", async () => {
    const [web] = procs as [Proc & { url: string }];
    const crew = crewClient(web.url, "three-step", TEST_CREW_TOKEN);
    const id = await crew.start({ job: "spelling" });
    const upper = () =>
      call(web.url, "GET", `/api/crews/three-step/status/${id.toUpperCase()}`, {
        token: TEST_CREW_TOKEN,
      });
    expect(["queued", "running"]).toContain((await upper()).json.status); // now cached
    await crew.waitFor(id, (s) => s.status === "completed", 30_000);
    expect((await upper()).json.status).toBe("completed");
  });
});
