import { beforeAll, describe, expect, inject, it } from "vitest";
import { call, crewClient, expectProblem } from "../support/api";
import { TEST_CREW_TOKEN, tokenCli } from "../support/harness";
import { addPerson } from "../support/people";

// User tokens see only their own executions; organization tokens see all.
const baseUrl = inject("baseUrl");
const serverEnv = inject("serverEnv");

let alice: ReturnType<typeof crewClient>;
let bob: ReturnType<typeof crewClient>;
const tokens: Record<string, string> = {};
const org = crewClient(baseUrl, "brief", TEST_CREW_TOKEN);

beforeAll(async () => {
  // A reviewer, so that what refuses bob's /resume below is ownership, not his role.
  await addPerson(baseUrl, { email: "bob@example.com", role: "reviewer" });
  for (const name of ["alice", "bob"])
    tokens[name] = (await tokenCli(["create", "--user", `${name}@example.com`], serverEnv))
      .token as string;
  alice = crewClient(baseUrl, "brief", tokens.alice as string);
  bob = crewClient(baseUrl, "brief", tokens.bob as string);
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

  it("reach only their own schedules and triggers (404 for the rest)", async () => {
    // An operator, so that what refuses dave's changes below is ownership, not his role.
    await addPerson(baseUrl, { email: "dave@example.com", role: "operator" });
    const dave = (await tokenCli(["create", "--user", "dave@example.com"], serverEnv))
      .token as string;
    const as = (who: string, method: string, path: string, body?: unknown) =>
      call(baseUrl, method, `/api/crews/brief${path}`, { token: who, body });
    const schedule = await as(tokens.alice as string, "POST", "/schedules", {
      name: "Alice's",
      cron: "0 9 * * *",
      timezone: "UTC",
      inputs: { topic: "a", audience: "b" },
    });
    expect(schedule.status, schedule.text).toBe(201);
    const trigger = await as(tokens.alice as string, "POST", "/triggers", { name: "Alice's" });
    expect(trigger.status, trigger.text).toBe(201);
    for (const [kind, id] of [
      ["schedules", schedule.json.id],
      ["triggers", trigger.json.id],
    ]) {
      const bobs = await as(dave, "GET", `/${kind}`);
      expect(bobs.text).not.toContain(id);
      expectProblem(await as(dave, "GET", `/${kind}/${id}`), 404);
      expectProblem(await as(dave, "PATCH", `/${kind}/${id}`, { paused: true }), 404);
      expectProblem(await as(dave, "DELETE", `/${kind}/${id}`), 404);
      expect((await as(tokens.alice as string, "GET", `/${kind}/${id}`)).status).toBe(200);
      expect((await as(TEST_CREW_TOKEN, "GET", `/${kind}`)).text).toContain(id);
    }
    expectProblem(await as(dave, "POST", `/triggers/${trigger.json.id}/secret`), 404);
    expectProblem(await as(dave, "GET", `/triggers/${trigger.json.id}/events`), 404);
    expectProblem(await as(dave, "GET", `/schedules/${schedule.json.id}/fires`), 404);
  });

  it("reach only their own datasets and experiments; skipping reviews needs a reviewer", async () => {
    await addPerson(baseUrl, { email: "erin@example.com", role: "operator" });
    const erin = (await tokenCli(["create", "--user", "erin@example.com"], serverEnv))
      .token as string;
    // The "review" crew: with reviews kept, its run waits for one, so the experiment is running.
    const as = (who: string, method: string, path: string, body?: unknown) =>
      call(baseUrl, method, `/api/crews/review${path}`, { token: who, body });
    const rows = [{ inputs: { subject: "herons" } }];
    const d = await as(erin, "POST", "/datasets", { name: "Erin's rows", rows });
    expect(d.status, d.text).toBe(201);
    // An operator cannot run one past the reviewers: that would let gated side effects through.
    const skip = await as(erin, "POST", "/experiments", {
      name: "x",
      dataset: d.json.id,
      variants: ["current"],
    });
    expectProblem(skip, 403);
    expect(skip.json.detail).toContain('"reviews": "wait"');
    const wait = await as(erin, "POST", "/experiments", {
      name: "x",
      dataset: d.json.id,
      variants: ["current"],
      reviews: "wait",
    });
    expect(wait.status, wait.text).toBe(202);
    expect(wait.json.reviews).toBe("wait");
    // Someone else's user token finds neither.
    const other = tokens.alice as string;
    expect((await as(other, "GET", "/datasets")).text).not.toContain(d.json.id);
    expectProblem(await as(other, "GET", `/datasets/${d.json.id}`), 404);
    expectProblem(await as(other, "POST", `/datasets/${d.json.id}/rows`, { rows }), 404);
    expectProblem(await as(other, "GET", `/experiments/${wait.json.id}`), 404);
    expectProblem(await as(other, "GET", `/experiments/${wait.json.id}/cells`), 404);
    expectProblem(await as(other, "POST", `/experiments/${wait.json.id}/stop`), 404);
    expect((await as(TEST_CREW_TOKEN, "GET", "/experiments")).text).toContain(wait.json.id);
    const stopped = await as(erin, "POST", `/experiments/${wait.json.id}/stop`);
    expect(stopped.status, stopped.text).toBe(200);
    expect(stopped.json).toMatchObject({
      status: "stopped",
      stop_reason: "Stopped by erin@example.com.",
      progress: { total: 1, skipped: 1 },
    });
  });
});
