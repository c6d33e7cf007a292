import crypto, { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DB_KINDS } from "../support/both-dbs";
import { ORG } from "../support/principals";
import { queryAs } from "../support/rows";
import { triggerBench } from "../support/trigger-bench";

// GitHub signs the body only: no timestamp, and not X-GitHub-Delivery. A captured body and
// signature sent again under a new delivery id (or none) is a replay and starts nothing, while
// GitHub's own "Redeliver" (same body, same delivery id) still answers with the first run — on
// both databases, and with two copies racing.
const DAY = 86_400_000;

describe.each(DB_KINDS)("GitHub trigger replays (%s)", (kind) => {
  const { bench, runsOf } = triggerBench(kind, "replays");

  async function githubTrigger(paused = false) {
    const { db, crew, triggers, contract } = bench();
    const body = contract.TriggerCreateSchema.parse({
      name: `On push ${randomUUID().slice(0, 6)}`,
      signature: "github",
      mapping: { job: "$.job" },
      paused,
    });
    return triggers.createTrigger(db, crew, ORG, body);
  }

  const signed = (secret: string, payload: object) => {
    const body = Buffer.from(JSON.stringify(payload));
    const signature = `sha256=${crypto.createHmac("sha256", secret).update(body).digest("hex")}`;
    return { body, signature };
  };

  const deliver = (
    t: { id: string },
    d: { body: Buffer; signature: string },
    deliveryId: string | null,
    now = new Date(),
  ) =>
    bench().receive.receiveDelivery(bench().db, {
      triggerId: t.id,
      headers: {
        "x-hub-signature-256": d.signature,
        "x-github-event": "push",
        ...(deliveryId ? { "x-github-delivery": deliveryId } : {}),
      },
      body: d.body,
      now,
    });

  it("refuses the same body and signature under a new delivery id or none; Redeliver still answers", async () => {
    const t = await githubTrigger();
    const d = signed(t.secret, { job: "tides" });
    const first = await deliver(t, d, randomUUID());
    expect(first).toMatchObject({ ok: true, duplicate: false });
    if (!first.ok) throw new Error("the first delivery starts a run");

    const replay = await deliver(t, d, randomUUID());
    expect(replay).toMatchObject({ ok: false, answer: { status: 409, outcome: "refused" } });
    if (!replay.ok) expect(replay.answer.detail).toMatch(/replay/i);

    const bare = await deliver(t, d, null);
    expect(bare).toMatchObject({ ok: false, answer: { status: 400, outcome: "invalid" } });
    if (!bare.ok) expect(bare.answer.detail).toContain("X-GitHub-Delivery");

    const other = await deliver(t, signed(t.secret, { job: "moons" }), randomUUID());
    expect(other).toMatchObject({ ok: true, duplicate: false });
    expect(await runsOf(t.id)).toBe(2);
  });

  it("GitHub's Redeliver (same body, same delivery id) answers with the first run", async () => {
    const t = await githubTrigger();
    const d = signed(t.secret, { job: "tides" });
    const id = randomUUID();
    const first = await deliver(t, d, id);
    const again = await deliver(t, d, id);
    expect(again).toMatchObject({ ok: true, duplicate: true });
    if (first.ok && again.ok) expect(again.kickoffId).toBe(first.kickoffId);
    expect(await runsOf(t.id)).toBe(1);
  });

  it("a delivery refused the first time may be redelivered once the trigger takes it", async () => {
    const t = await githubTrigger(true);
    const d = signed(t.secret, { job: "tides" });
    const id = randomUUID();
    expect(await deliver(t, d, id)).toMatchObject({ ok: false, answer: { status: 409 } });
    const { db, crew, triggers } = bench();
    await triggers.updateTrigger(db, crew, ORG, t.id, { paused: false });
    expect(await deliver(t, d, id)).toMatchObject({ ok: true, duplicate: false });
    expect(await deliver(t, d, randomUUID())).toMatchObject({ ok: false, answer: { status: 409 } });
  });

  it("two copies under different delivery ids at once start one run", async () => {
    const t = await githubTrigger();
    const d = signed(t.secret, { job: "tides" });
    const got = await Promise.all([deliver(t, d, randomUUID()), deliver(t, d, randomUUID())]);
    expect(got.filter((r) => r.ok)).toHaveLength(1);
    expect(got.filter((r) => !r.ok && r.answer.status === 409)).toHaveLength(1);
    expect(await runsOf(t.id)).toBe(1);
  });

  it("remembers a body for the window, then forgets it", async () => {
    const t = await githubTrigger();
    const d = signed(t.secret, { job: "tides" });
    const start = new Date();
    const at = (days: number) => new Date(start.getTime() + days * DAY);
    expect(await deliver(t, d, randomUUID(), start)).toMatchObject({ ok: true });
    const windowDays = bench().receive.GITHUB_REPLAY_WINDOW_DAYS;
    expect(await deliver(t, d, randomUUID(), at(windowDays - 1))).toMatchObject({
      ok: false,
      answer: { status: 409 },
    });
    const remembered = async () =>
      (
        await queryAs<{ n: number }>(
          bench().db,
          "SELECT count(*)::int AS n FROM trigger_replays WHERE trigger_id = $1",
          [t.id],
        )
      ).rows[0]?.n;
    expect(await remembered()).toBe(1);
    // A later delivery prunes what is older than the window.
    const later = signed(t.secret, { job: "moons" });
    expect(await deliver(t, later, randomUUID(), at(windowDays + 1))).toMatchObject({ ok: true });
    expect(await remembered()).toBe(1);
  });
});
