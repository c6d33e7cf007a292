import { describe, expect, inject, it } from "vitest";
import { call, crewClient } from "../support/api";
import { TEST_CREW_TOKEN } from "../support/harness";

// /status answers the same whatever the id's spelling. (That a run claimed while a lease renewal
// is in flight is not dropped by its own worker is tests/unit/lease-renewal-race.test.ts: a
// forced interleaving, not a 150 ms lease on a machine that may be busy.)
const baseUrl = inject("baseUrl");

describe("ids", () => {
  it("a cached status read by an upper-case id is invalidated like the lower-case one", async () => {
    // A reviewed run stands still at each review, so the cached answer is known, whatever the
    // machine's speed: read it by the upper-case id, change the run, read it again.
    const crew = crewClient(baseUrl, "review", TEST_CREW_TOKEN);
    const id = await crew.start({ subject: "spelling" });
    await crew.waitFor(id, (s) => s.status === "pending_human_input");
    const upper = () =>
      call(baseUrl, "GET", `/api/crews/review/status/${id.toUpperCase()}`, {
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
