import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { openEmbedded } from "@/lib/db/open";
import { call, crewClient, expectProblem, type Json } from "../support/api";
import {
  cliArgs,
  FIXTURE_CREWS,
  type Proc,
  runNode,
  startServer,
  TEST_CREW_TOKEN,
  tempDir,
  tokenCli,
} from "../support/harness";
import { addPerson, adminHeaders } from "../support/people";

// The decision ledger (issue 15, item 6): every review event of a run as a hash-chained entry,
// exported and verified over the API and by `npm run audit:verify`; a tampered entry is found.
const baseUrl = inject("baseUrl");
const serverEnv = inject("serverEnv");
const mode = inject("db");
const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const GENESIS = "0".repeat(64);
const REVIEW_TYPES = /^review_/;

const ledgerOf = (url: string, id: string, query = "") =>
  call(url, "GET", `/api/crews/review/executions/${id}/ledger${query}`, {
    token: TEST_CREW_TOKEN,
  });
const verifyOf = (url: string, id: string) =>
  call(url, "GET", `/api/crews/review/executions/${id}/ledger/verify`, {
    token: TEST_CREW_TOKEN,
  });

/** `npm run audit:verify -- …`, the real CLI. */
async function auditCli(args: string[], env: Record<string, string | undefined> = {}) {
  const res = await runNode(cliArgs("audit:verify", ...args), env);
  return { code: res.status, out: `${res.stdout}${res.stderr}` };
}

const paused =
  (task: string, attempt = 1) =>
  (s: Json) =>
    s.status === "pending_human_input" &&
    s.pending_human_input?.task_id === task &&
    s.pending_human_input.attempt === attempt;

/** The review crew's two tasks: the draft sent back once, then approved with an edit; the polish approved. */
async function reviewedRun(url: string, subject: string) {
  const crew = crewClient(url, "review", TEST_CREW_TOKEN);
  const id = await crew.start({ subject });
  const decide = async (
    task_id: string,
    is_approve: boolean,
    human_feedback: string,
    extra = {},
  ) => {
    const r = await crew.resume({
      execution_id: id,
      task_id,
      human_feedback,
      is_approve,
      ...extra,
    });
    expect(r.status, r.text).toBe(200);
  };
  const first = (await crew.waitFor(id, paused("draft", 1))).pending_human_input.output as string;
  await decide("draft", false, "Mention rivers.");
  const second = (await crew.waitFor(id, paused("draft", 2))).pending_human_input.output as string;
  const edited = `${second}\n\nEdited by the reviewer.`;
  await decide("draft", true, "Tightened.", { edited_output: edited });
  const polish = (await crew.waitFor(id, paused("polish", 1))).pending_human_input.output as string;
  await decide("polish", true, "Ship it.");
  await crew.waitFor(id, (s) => s.status === "completed");
  return { id, outputs: { first, second, edited, polish } };
}

describe("the decision ledger", () => {
  it("records each request and decision in order: who, what they saw, what they decided, its effect", async () => {
    const { id, outputs } = await reviewedRun(baseUrl, "otters");
    const r = await ledgerOf(baseUrl, id);
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get("content-disposition")).toBeNull();
    const entries = r.json.entries as Json[];
    expect(r.json).toMatchObject({ execution_id: id, crew: "review" });

    const events = (await crewClient(baseUrl, "review", TEST_CREW_TOKEN).events(id)).json
      .events as Json[];
    const reviews = events.filter((e) => REVIEW_TYPES.test(e.type));
    const reviewer = reviews.find((e) => e.type === "review_submitted").data.reviewer as string;
    expect(reviewer).toMatch(/^org-token:/);
    expect(entries.map((e) => e.event_seq)).toEqual(reviews.map((e) => e.seq));

    expect(entries).toMatchObject([
      {
        position: 1,
        action: "review_requested",
        task_id: "draft",
        attempt: 1,
        actor: "system",
        effect: "awaiting_review",
        output_sha256: sha256(outputs.first),
        decision: {},
        prev_hash: GENESIS,
      },
      {
        position: 2,
        action: "review_submitted",
        task_id: "draft",
        attempt: 1,
        actor: reviewer,
        effect: "sent_back",
        output_sha256: sha256(outputs.first),
        decision: { decision: "reject", feedback: "Mention rivers." },
      },
      {
        position: 3,
        action: "review_requested",
        attempt: 2,
        effect: "awaiting_review",
        output_sha256: sha256(outputs.second),
      },
      {
        position: 4,
        action: "review_submitted",
        attempt: 2,
        actor: reviewer,
        effect: "approved",
        output_sha256: sha256(outputs.second),
        decision: {
          decision: "approve",
          feedback: "Tightened.",
          edited: true,
          edited_output_sha256: sha256(outputs.edited),
          diff_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        },
      },
      { position: 5, action: "review_requested", task_id: "polish", effect: "awaiting_review" },
      {
        position: 6,
        action: "review_submitted",
        task_id: "polish",
        effect: "approved",
        output_sha256: sha256(outputs.polish),
        decision: { decision: "approve", feedback: "Ship it." },
      },
    ]);
    // Each entry holds the hash of the one before it.
    for (const [i, e] of entries.entries())
      expect(e.prev_hash).toBe(i === 0 ? GENESIS : entries[i - 1].hash);
    // The edit's text stays in the event log; the ledger keeps its hash.
    expect(JSON.stringify(entries)).not.toContain("Edited by the reviewer.");

    const v = await verifyOf(baseUrl, id);
    expect(v.status, v.text).toBe(200);
    expect(v.json).toEqual({ ok: true, entries: 6, head_hash: entries[5].hash });
  });

  it("exports as a file that the CLI verifies without the server, and finds an edited entry in it", async () => {
    const { id } = await reviewedRun(baseUrl, "herons");
    const r = await ledgerOf(baseUrl, id, "?download=1");
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get("content-disposition")).toBe(`attachment; filename="${id}-ledger.json"`);
    const dir = tempDir("ledger-export");
    const intact = path.join(dir, `${id}-ledger.json`);
    fs.writeFileSync(intact, r.text);
    const ok = await auditCli(["--file", intact]);
    expect(ok.code, ok.out).toBe(0);
    expect(ok.out).toContain(`intact (6 entries, head ${r.json.entries[5].hash})`);

    // The send-back rewritten as an approval after the fact.
    const tampered = path.join(dir, "tampered.json");
    const copy = structuredClone(r.json);
    copy.entries[1].decision = { decision: "approve", feedback: "Mention rivers." };
    copy.entries[1].effect = "approved";
    fs.writeFileSync(tampered, JSON.stringify(copy));
    const bad = await auditCli(["--file", tampered]);
    expect(bad.code, bad.out).toBe(1);
    expect(bad.out).toContain("BROKEN at #2: hash mismatch");

    // An entry removed from the export.
    copy.entries = r.json.entries.filter((e: Json) => e.position !== 3);
    fs.writeFileSync(tampered, JSON.stringify(copy));
    const gap = await auditCli(["--file", tampered]);
    expect(gap.code, gap.out).toBe(1);
    expect(gap.out).toContain("BROKEN at #3: gap");

    expectProblem(await ledgerOf(baseUrl, id, "?download=yes"), 400);
  });

  it("each run has a chain of its own", async () => {
    const crew = crewClient(baseUrl, "review", TEST_CREW_TOKEN);
    const [a, b] = [await crew.start({ subject: "crows" }), await crew.start({ subject: "owls" })];
    await crew.waitFor(a, paused("draft"));
    await crew.waitFor(b, paused("draft"));
    const r = await crew.resume({
      execution_id: b,
      task_id: "draft",
      human_feedback: "Shorter.",
      is_approve: false,
    });
    expect(r.status, r.text).toBe(200);
    await crew.waitFor(b, paused("draft", 2));
    const [la, lb] = [(await ledgerOf(baseUrl, a)).json, (await ledgerOf(baseUrl, b)).json];
    expect(la.entries.map((e: Json) => [e.position, e.action])).toEqual([[1, "review_requested"]]);
    expect(lb.entries.map((e: Json) => [e.position, e.action])).toEqual([
      [1, "review_requested"],
      [2, "review_submitted"],
      [3, "review_requested"],
    ]);
    expect(la.entries[0].prev_hash).toBe(GENESIS);
    expect(lb.entries[0].prev_hash).toBe(GENESIS);
    expect((await verifyOf(baseUrl, a)).json).toMatchObject({ ok: true, entries: 1 });
    expect((await verifyOf(baseUrl, b)).json).toMatchObject({ ok: true, entries: 3 });
    await crew.stop(a);
    await crew.stop(b);
  });

  it("only those who may see the run read its ledger", async () => {
    const crew = crewClient(baseUrl, "review", TEST_CREW_TOKEN);
    const id = await crew.start({ subject: "moles" });
    await crew.waitFor(id, paused("draft"));
    const other = await addPerson(baseUrl, {
      email: "ledger-outsider@example.com",
      role: "operator",
    });
    const token = (await tokenCli(["create", "--user", other.email], serverEnv)).token as string;
    for (const suffix of ["ledger", "ledger/verify"]) {
      const p = `/api/crews/review/executions/${id}/${suffix}`;
      expectProblem(await call(baseUrl, "GET", p), 401);
      expectProblem(await call(baseUrl, "GET", p, { token: "cdo_not-a-real-token" }), 401);
      // Another user's run, another crew's run, no such run: the same 404.
      expectProblem(await call(baseUrl, "GET", p, { token }), 404);
      expectProblem(
        await call(baseUrl, "GET", p.replace("/review/", "/brief/"), { token: TEST_CREW_TOKEN }),
        404,
      );
      expectProblem(
        await call(baseUrl, "GET", p.replace(id, "00000000-0000-4000-8000-000000000000"), {
          token: TEST_CREW_TOKEN,
        }),
        404,
      );
      expectProblem(await call(baseUrl, "POST", p, { token: TEST_CREW_TOKEN, body: {} }), 405);
      // The administrator's session sees every run.
      const admin = await call(baseUrl, "GET", p, { headers: await adminHeaders(baseUrl) });
      expect(admin.status, admin.text).toBe(200);
    }
    await crew.stop(id);
  });
});

describe("a ledger entry changed in the database", () => {
  let own: (Proc & { url: string }) | undefined;
  afterAll(async () => {
    await own?.kill();
  });

  it("is reported by the API and the CLI, and other runs stay intact", async () => {
    if (mode === "postgres") {
      // The server keeps running; a direct connection changes the stored entry.
      const url = serverEnv.DATABASE_URL as string;
      const { id } = await reviewedRun(baseUrl, "beavers");
      const { id: other } = await reviewedRun(baseUrl, "badgers");
      const { default: pg } = await import("pg");
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(
        `UPDATE review_ledger SET decision = jsonb_set(decision, '{feedback}', '"Looks great."')
          WHERE execution_id = $1 AND position = 2`,
        [id],
      );
      await client.end();
      expect((await verifyOf(baseUrl, id)).json).toMatchObject({
        ok: false,
        entries: 6,
        first_bad: { position: 2, reason: "hash mismatch" },
      });
      expect((await verifyOf(baseUrl, other)).json).toMatchObject({ ok: true, entries: 6 });
      const cli = await auditCli([id, other], { DATABASE_URL: url });
      expect(cli.code, cli.out).toBe(1);
      expect(cli.out).toContain(`${id}  BROKEN at #2: hash mismatch`);
      expect(cli.out).toContain(`${other}  intact (6 entries`);
      const all = await auditCli(["--all"], { DATABASE_URL: url });
      expect(all.code, all.out).toBe(1);
      expect(all.out).toContain(`${other}  intact`);
      return;
    }
    // The embedded database belongs to the server that runs it: a server of this test's own,
    // stopped while the entry is changed in its files, then started again.
    const env = {
      CREWS_DIR: FIXTURE_CREWS,
      DATA_DIR: tempDir("ledger-tamper"),
      CREW_TOKEN: TEST_CREW_TOKEN,
      OFFLINE_MODEL_DELAY_MS: "0",
      WORKER_POLL_MS: "100",
    };
    own = await startServer(env);
    const { id } = await reviewedRun(own.url, "beavers");
    const { id: other } = await reviewedRun(own.url, "badgers");
    // While the server holds the database, the CLI says where to ask instead.
    const held = await auditCli([id], env);
    expect(held.code, held.out).toBe(2);
    expect(held.out).toMatch(/held by the server .*ledger\/verify/s);
    await own.kill();
    own = undefined;

    const db = await openEmbedded(env.DATA_DIR);
    await db.query(
      `UPDATE review_ledger SET decision = jsonb_set(decision, '{feedback}', '"Looks great."')
        WHERE execution_id = $1 AND position = 2`,
      [id],
    );
    await db.close();
    const cli = await auditCli([id, other], env);
    expect(cli.code, cli.out).toBe(1);
    expect(cli.out).toContain(`${id}  BROKEN at #2: hash mismatch`);
    expect(cli.out).toContain(`${other}  intact (6 entries`);

    own = await startServer(env);
    expect((await verifyOf(own.url, id)).json).toMatchObject({
      ok: false,
      entries: 6,
      first_bad: { position: 2, reason: "hash mismatch" },
    });
    expect((await verifyOf(own.url, other)).json).toMatchObject({ ok: true, entries: 6 });
  });
});
