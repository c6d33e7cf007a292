import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { queryable } from "@/lib/db/queryable";
import type { Queryable } from "@/lib/db/types";
import { crewClient, type Json, until } from "../support/api";
import { crewsDirMaker } from "../support/crews-dir";
import {
  cliArgs,
  dbMode,
  freshPostgresDatabase,
  type Proc,
  runNode,
  startServer,
  TEST_CREW_TOKEN,
  tempDir,
} from "../support/harness";
import { RECEIVER_HOST, startReceiver } from "../support/receiver";
import { queryAs } from "../support/rows";

// Retention (issue 17, item 4): finished runs older than RETENTION_DAYS — or their crew's own
// retention_days — are deleted by the workers' sweeper with their events, deliveries, artifacts
// and workspace folders; recent runs, runs waiting for review and crews kept longer stay; the
// review ledger outlives its run until LEDGER_RETENTION_DAYS, and what stays still verifies.
//
// Old runs are made honestly: real runs on a server without retention, which is then stopped;
// their finished_at (and one ledger's times) are moved back in the database directly; a server
// with retention is started on the same database. Nothing in the product moves its clock.
const mode = dbMode();
const procs: Proc[] = [];
const receiver = await startReceiver();
afterAll(async () => {
  await Promise.all(procs.map((p) => p.kill("SIGKILL")));
  await receiver.close();
});

const crewsDir = crewsDirMaker("retention");
const agent = `agents:\n  writer:\n    role: Writer\n    goal: Write about {subject}\n    backstory: Brief.\n`;
const CREWS = {
  // A plain crew whose task also keeps its output as a file (an artifact).
  "plain/crew.yaml": `${agent}tasks:\n  write:\n    description: Write about {subject}\n    expected_output: A line\n    agent: writer\n    output_file: report.md\n`,
  // Kept longer than the deployment's default.
  "kept/crew.yaml": `retention_days: 400\n${agent}tasks:\n  write:\n    description: Write about {subject}\n    expected_output: A line\n    agent: writer\n`,
  // Reviewed: its runs have a decision ledger.
  "reviewed/crew.yaml": `${agent}tasks:\n  draft:\n    description: Draft about {subject}\n    expected_output: A line\n    agent: writer\n    human_input: true\n`,
};

/** The test's database, opened directly while no server holds it (embedded) or beside it. */
async function withDatabase<T>(
  env: Record<string, string>,
  fn: (q: Queryable) => Promise<T>,
): Promise<T> {
  if (mode === "postgres") {
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    try {
      return await fn(
        queryable(async (sql, params) => {
          const r = await client.query(sql, params);
          return { rows: r.rows, rowCount: r.rowCount ?? 0 };
        }),
      );
    } finally {
      await client.end();
    }
  }
  const { openEmbedded } = await import("@/lib/db/open");
  const db = await openEmbedded(env.DATA_DIR as string);
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

/** `npm run audit:verify -- --all`, the auditor's CLI, on the test's database. */
async function auditAll(env: Record<string, string>) {
  const res = await runNode(cliArgs("audit:verify", "--all"), env);
  return { code: res.status, out: `${res.stdout}${res.stderr}` };
}

const counts = (q: Queryable, id: string) =>
  queryAs<Record<string, number>>(
    q,
    `SELECT (SELECT count(*)::int FROM executions WHERE id = $1) AS runs,
              (SELECT count(*)::int FROM execution_events WHERE execution_id = $1) AS events,
              (SELECT count(*)::int FROM execution_artifacts WHERE execution_id = $1) AS artifacts,
              (SELECT count(*)::int FROM webhook_deliveries WHERE execution_id = $1) AS deliveries,
              (SELECT count(*)::int FROM review_ledger WHERE execution_id = $1) AS ledger`,
    [id],
  ).then((r) => r.rows[0] as Record<string, number>);

describe("retention", () => {
  it("deletes old finished runs with what they keep; keeps recent, paused and longer-kept runs and ledgers within their own retention", async () => {
    const env: Record<string, string> = {
      CREWS_DIR: crewsDir(CREWS),
      CREW_TOKEN: TEST_CREW_TOKEN,
      OFFLINE_MODEL_DELAY_MS: "0",
      WORKER_POLL_MS: "100",
      WEBHOOK_ALLOWED_NETWORKS: `${RECEIVER_HOST}/32`,
      DATA_DIR: tempDir("retention"),
      ...(mode === "postgres" ? { DATABASE_URL: (await freshPostgresDatabase()) as string } : {}),
    };

    // 1. Real runs, on a server that keeps everything.
    const before = await startServer(env);
    procs.push(before);
    const plain = crewClient(before.url, "plain", TEST_CREW_TOKEN);
    const kept = crewClient(before.url, "kept", TEST_CREW_TOKEN);
    const reviewed = crewClient(before.url, "reviewed", TEST_CREW_TOKEN);
    const completed = (s: Json) => s.status === "completed";
    const paused = (s: Json) => s.status === "pending_human_input";

    const kickoff = await plain.kickoff({
      inputs: { subject: "tides" },
      taskWebhookUrl: receiver.url("/task"),
      crewWebhookUrl: receiver.url("/crew"),
    });
    expect(kickoff.status, kickoff.text).toBe(200);
    const plainOld = kickoff.json.kickoff_id as string;
    const plainRecent = await plain.start({ subject: "rivers" });
    const keptOld = await kept.start({ subject: "glaciers" });
    const keptAncient = await kept.start({ subject: "fossils" });
    const reviewedOld = await reviewed.start({ subject: "otters" });
    const reviewedAncient = await reviewed.start({ subject: "beavers" });
    const waiting = await reviewed.start({ subject: "herons" });
    for (const id of [plainOld, plainRecent]) await plain.waitFor(id, completed);
    for (const id of [keptOld, keptAncient]) await kept.waitFor(id, completed);
    for (const id of [reviewedOld, reviewedAncient, waiting]) await reviewed.waitFor(id, paused);
    for (const id of [reviewedOld, reviewedAncient]) {
      const r = await reviewed.resume({
        execution_id: id,
        task_id: "draft",
        human_feedback: "Fine.",
        is_approve: true,
      });
      expect(r.status, r.text).toBe(200);
      await reviewed.waitFor(id, completed);
    }
    // Only the plain run has webhooks: its task's and its crew's.
    await until(
      "the plain run's task and crew webhooks",
      () => receiver.delivered().length,
      (n) => n >= 2,
    );
    await before.kill();

    // 2. Make some of them old, in the database; give two runs workspace folders.
    await withDatabase(env, async (q) => {
      const age = (ids: string[], days: number) =>
        q.query(
          `UPDATE executions SET finished_at = finished_at - $2::int * interval '1 day',
                  updated_at = updated_at - $2::int * interval '1 day',
                  created_at = created_at - $2::int * interval '1 day'
            WHERE id = ANY($1::uuid[])`,
          [ids, days],
        );
      await age([plainOld, keptOld, reviewedOld], 40);
      await age([keptAncient, reviewedAncient, waiting], 500);
      // That ledger is past its own retention too (its hashes no longer match: it is to go).
      await q.query(
        "UPDATE review_ledger SET at = at - interval '500 days' WHERE execution_id = $1",
        [reviewedAncient],
      );
      const plainBefore = await counts(q, plainOld);
      expect(plainBefore).toMatchObject({ runs: 1, artifacts: 1 });
      expect(plainBefore.events).toBeGreaterThan(0);
      expect(plainBefore.deliveries).toBeGreaterThanOrEqual(2);
      // Delivered before the server stopped (a delivery under way would hold the run back).
      const { rows } = await queryAs<{ status: string }>(
        q,
        "SELECT DISTINCT status FROM webhook_deliveries WHERE execution_id = $1",
        [plainOld],
      );
      expect(rows).toEqual([{ status: "succeeded" }]);
      expect((await counts(q, reviewedOld)).ledger).toBeGreaterThan(0);
    });
    for (const id of [plainOld, plainRecent]) {
      const dir = path.join(env.DATA_DIR as string, "workspaces", id);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, "notes.md"), "notes");
    }

    // 3. A server with retention: 30 days by default, the ledger a year.
    const after = await startServer({
      ...env,
      RETENTION_DAYS: "30",
      LEDGER_RETENTION_DAYS: "365",
      RETENTION_SWEEP_MS: "200",
    });
    procs.push(after);
    const status = (crew: string, id: string) =>
      crewClient(after.url, crew, TEST_CREW_TOKEN)
        .status(id)
        .then((r) => r.status);
    const gone: [string, string][] = [
      ["plain", plainOld],
      ["kept", keptAncient],
      ["reviewed", reviewedOld],
      ["reviewed", reviewedAncient],
    ];
    await until(
      "the old runs to be deleted",
      () => Promise.all(gone.map(([crew, id]) => status(crew, id))),
      (codes) => codes.every((c) => c === 404),
    );
    // Every pass looks at every run: once one has ended, what it left is what retention keeps.
    await until(
      "the sweeper's pass to end",
      () => after.output(),
      (out) => /\[retention\] deleted \d+ finished run/.test(out),
    );
    expect(await status("plain", plainRecent)).toBe(200);
    expect(await status("kept", keptOld)).toBe(200);
    expect(await status("reviewed", waiting)).toBe(200);
    await after.kill();

    // 4. In the database: nothing of the deleted runs but the ledger within its retention.
    await withDatabase(env, async (q) => {
      const none = { runs: 0, events: 0, artifacts: 0, deliveries: 0 };
      expect(await counts(q, plainOld)).toEqual({ ...none, ledger: 0 });
      expect(await counts(q, keptAncient)).toEqual({ ...none, ledger: 0 });
      expect(await counts(q, reviewedAncient)).toEqual({ ...none, ledger: 0 });
      const old = await counts(q, reviewedOld);
      expect(old).toMatchObject(none);
      expect(old.ledger).toBeGreaterThan(0);
      for (const id of [plainRecent, keptOld, waiting]) expect((await counts(q, id)).runs).toBe(1);
      expect((await counts(q, plainRecent)).artifacts).toBe(1);
    });
    const workspace = (id: string) => path.join(env.DATA_DIR as string, "workspaces", id);
    expect(fs.existsSync(workspace(plainOld))).toBe(false);
    expect(fs.existsSync(workspace(plainRecent))).toBe(true);

    // 5. The ledgers that remain verify, the deleted run's among them.
    const audit = await auditAll(env);
    expect(audit.code, audit.out).toBe(0);
    expect(audit.out).toContain(`${reviewedOld}  intact`);
    expect(audit.out).toContain(`${waiting}  intact`);
    expect(audit.out).not.toContain(reviewedAncient);
  });
});
