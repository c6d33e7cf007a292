import { beforeAll, describe, expect, inject, it } from "vitest";
import { crewClient, expectProblem } from "../support/api";
import { TEST_CREW_TOKEN, tokenCli } from "../support/harness";
import { addPerson } from "../support/people";

// User tokens see only their own executions; organization tokens see all.
const baseUrl = inject("baseUrl");
const serverEnv = inject("serverEnv");

let alice: ReturnType<typeof crewClient>;
let bob: ReturnType<typeof crewClient>;
const org = crewClient(baseUrl, "brief", TEST_CREW_TOKEN);

beforeAll(async () => {
  // A reviewer, so that what refuses bob's /resume below is ownership, not his role.
  await addPerson(baseUrl, { email: "bob@example.com", role: "reviewer" });
  alice = crewClient(
    baseUrl,
    "brief",
    (await tokenCli(["create", "--user", "alice@example.com"], serverEnv)).token as string,
  );
  bob = crewClient(
    baseUrl,
    "brief",
    (await tokenCli(["create", "--user", "bob@example.com"], serverEnv)).token as string,
  );
});

describe("user tokens", () => {
  it("read only their own executions (404 for the rest)", async () => {
    const id = await alice.start({ topic: "a", audience: "b" });
    expect((await alice.status(id)).status).toBe(200);
    expect((await alice.events(id)).status).toBe(200);
    expect((await org.status(id)).status).toBe(200);

    expectProblem(await bob.status(id), 404);
    expectProblem(await bob.events(id), 404);
    expectProblem(await bob.stop(id), 404); // 404, whatever the execution's state
    expectProblem(
      await bob.resume({
        execution_id: id,
        task_id: "research",
        human_feedback: "x",
        is_approve: true,
      }),
      404,
    );

    const orgRun = await org.start({ topic: "a", audience: "b" });
    expectProblem(await alice.status(orgRun), 404);
  });

  it("stop only their own executions", async () => {
    const token = (await tokenCli(["create", "--user", "carol@example.com"], serverEnv))
      .token as string;
    const carol = crewClient(baseUrl, "review", token);
    const id = await carol.start({ subject: "bees" });
    await carol.waitFor(id, (s) => s.status === "pending_human_input");
    expectProblem(
      await crewClient(baseUrl, "review", TEST_CREW_TOKEN).status(
        "00000000-0000-4000-8000-000000000000",
      ),
      404,
    );
    const dave = crewClient(
      baseUrl,
      "review",
      (await tokenCli(["create", "--user", "dave@example.com"], serverEnv)).token as string,
    );
    expectProblem(await dave.stop(id), 404);
    expect((await carol.stop(id)).status).toBe(200);
  });

  it("a second token of the same user sees that user's executions", async () => {
    const id = await alice.start({ topic: "a", audience: "b" });
    const again = crewClient(
      baseUrl,
      "brief",
      (await tokenCli(["create", "--user", "ALICE@example.com"], serverEnv)).token as string,
    );
    expect((await again.status(id)).status).toBe(200);
  });
});
