import { afterAll, describe, expect, it } from "vitest";
import { call, crewClient, expectProblem, type Json, until } from "../support/api";
import {
  dbMode,
  FIXTURE_CREWS,
  type Proc,
  TEST_ADMIN,
  TEST_CREW_TOKEN,
  tempDir,
} from "../support/harness";
import { addPerson, adminHeaders } from "../support/people";
import { RECEIVER_HOST, startReceiver } from "../support/receiver";
import { signIn } from "../support/session";
import { twoWorkers } from "../support/topology";

// Review deadlines and reminders fire from the workers' review clock: once, whoever gets there
// first, and after a worker is killed and started again. Embedded: the worker lives in the web
// process, which is killed and restarted. PostgreSQL: two worker processes share the database;
// one is killed mid-run and started again.
const mode = dbMode();
const procs: Proc[] = [];
// The team's Slack channel (an incoming webhook on loopback): reminders and escalations reach it.
const slack = await startReceiver();
afterAll(async () => {
  await Promise.all(procs.map((p) => p.kill("SIGKILL")));
  await slack.close();
});

async function topology() {
  const env = {
    CREWS_DIR: FIXTURE_CREWS,
    CREW_TOKEN: TEST_CREW_TOKEN,
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    OFFLINE_MODEL_DELAY_MS: "0",
    WORKER_LEASE_MS: "3000",
    WORKER_POLL_MS: "100",
    // The clock wakes at the next due time it knows; a review opened meanwhile waits this long.
    REVIEW_CLOCK_MS: "500",
    WEBHOOK_ALLOWED_NETWORKS: `${RECEIVER_HOST}/32`,
    DATA_DIR: tempDir("deadlines"),
  };
  return twoWorkers(mode, procs, env);
}

describe("review deadlines", () => {
  it("approve, remind, escalate, send back (then escalate), stop — each once, across a crash", async () => {
    const t = await topology();
    const crew = crewClient(t.url, "deadline-review", TEST_CREW_TOKEN);
    const { password } = await addPerson(t.url, { email: "dora@example.com", role: "reviewer" });
    const dora = { cookie: await signIn(t.url, "dora@example.com", password), origin: t.url };
    const decide = (headers: Record<string, string>, task_id: string) =>
      call(t.url, "POST", "/api/crews/deadline-review/resume", {
        headers,
        body: { execution_id: id, task_id, is_approve: true, human_feedback: "" },
      });
    const events = async () => (await crew.events(id)).json.events as Json[];
    const has =
      (type: string, task: string, attempt = 1) =>
      (list: Json[]) =>
        list.some((e) => e.type === type && e.task_id === task && e.attempt === attempt);

    const settings = await call(t.url, "PUT", "/api/settings/notifications", {
      headers: await adminHeaders(t.url),
      body: { smtp: null, slack_webhook_url: slack.url("/services/T1/B1/deadlines") },
    });
    expect(settings.status, settings.text).toBe(200);

    const id = await crew.start({ subject: "clocks" });
    // The first review opens with a 1 s deadline; the worker dies before or after it passes.
    // Seen in the event log, which keeps it: the review itself may be over by the first look.
    await until("auto awaits review", events, has("review_requested", "auto"));
    await t.crash();
    // on_timeout: approve — the run goes on without anyone.
    await until("auto approved", events, has("review_timed_out", "auto"));

    // A reminder (1 s) while the deadline (1 d) is far: sent once; dora then approves.
    await until("a reminder", events, has("review_reminded", "remind"));
    const reminded = (await events()).find((e) => e.type === "review_reminded");
    expect(reminded.data.assignees).toEqual(["reviewer"]);
    // The reminder reaches the channel, naming the reviewer it is for.
    const heard = (text: RegExp) => () =>
      slack.received.some((r) => text.test(JSON.stringify(r.body)));
    await until("the reminder in Slack", heard(/[Rr]eminder[\s\S]*dora@example\.com/), Boolean);
    expect((await decide(dora, "remind")).status).toBe(200);

    // on_timeout: escalate — to the administrators; dora may no longer decide it.
    await until("escalated", events, has("review_escalated", "escalated"));
    const s = (await crew.status(id)).json;
    expect(s.pending_human_inputs[0]).toMatchObject({ task_id: "escalated", assignees: ["admin"] });
    expectProblem(await decide(dora, "escalated"), 403);
    await until("the escalation in Slack", heard(/[Ee]scalat[\s\S]*admin@example\.com/), Boolean);
    expect((await decide(await adminHeaders(t.url), "escalated")).status).toBe(200);

    // on_timeout: send_back — the task runs again; its one review round used, the next deadline
    // escalates instead of sending it back for ever.
    await until("redo escalated", events, has("review_escalated", "redo", 2));
    expect((await crew.status(id)).json.tasks[3].attempts).toBe(2);
    expect((await decide(await adminHeaders(t.url), "redo")).status).toBe(200);

    // on_timeout: stop — the run is stopped, saying why.
    const end = await crew.waitFor(id, (x) => x.status === "cancelled");
    expect(end.error).toMatch(/'halt' was not reviewed before its deadline/);
    expect(end.stopped_by).toBe("review deadline");
    expect(end.pending_human_inputs).toEqual([]);

    // Each deadline fired exactly once, and the reminder was sent once.
    const all = await events();
    const fired = all
      .filter((e) => e.type === "review_timed_out")
      .map((e) => `${e.task_id}#${e.attempt}:${e.data.action}`);
    expect(fired).toEqual([
      "auto#1:approve",
      "escalated#1:escalate",
      "redo#1:send_back",
      "redo#2:escalate",
      "halt#1:stop",
    ]);
    expect(all.filter((e) => e.type === "review_reminded")).toHaveLength(1);
    const auto = all.find((e) => e.type === "review_submitted" && e.task_id === "auto");
    expect(auto.data).toMatchObject({ reviewer: "review deadline", effect: "approved" });
  });
});
