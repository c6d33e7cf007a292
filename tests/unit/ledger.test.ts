import { describe, expect, it } from "vitest";
import { canonicalJson } from "@/lib/ledger/canonical-json";
import { describeEvent } from "@/lib/ledger/describe-event";
import { entryHash, GENESIS_HASH, type LedgerEntry, sha256Hex } from "@/lib/ledger/entry";
import { verifyChain } from "@/lib/ledger/verify";

const RUN = "0b0e6d1a-8a2f-4c39-9b3e-2f7c1d4e5a60";

/** A chain of n entries, hashed as appendLedger hashes them. */
function chain(n: number, execution_id = RUN): LedgerEntry[] {
  const out: LedgerEntry[] = [];
  let prev = GENESIS_HASH;
  for (let position = 1; position <= n; position++) {
    const base = {
      execution_id,
      position,
      event_seq: position * 3,
      at: new Date(Date.UTC(2026, 10, 23, 14, 0, position)).toISOString(),
      actor: position % 2 ? "system" : "reviewer@example.com",
      action: position % 2 ? "review_requested" : "review_submitted",
      task_id: "draft",
      attempt: Math.ceil(position / 2),
      output_sha256: sha256Hex(`output ${Math.ceil(position / 2)}`),
      decision: position % 2 ? {} : { decision: "reject", feedback: `round ${position}` },
      effect: position % 2 ? "awaiting_review" : "sent_back",
      prev_hash: prev,
    };
    const entry = { ...base, hash: entryHash(base) };
    out.push(entry);
    prev = entry.hash;
  }
  return out;
}

describe("canonical JSON", () => {
  it("sorts keys at every depth and leaves out undefined members", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: null }], c: undefined } })).toBe(
      '{"a":{"d":[2,{"y":null,"z":1}]},"b":1}',
    );
    expect(canonicalJson({ x: 1, y: 2 })).toBe(canonicalJson({ y: 2, x: 1 }));
    expect(canonicalJson("é\n")).toBe(JSON.stringify("é\n"));
  });
});

describe("verifyChain", () => {
  it("an intact chain verifies, with its head", () => {
    const entries = chain(5);
    expect(verifyChain(entries)).toEqual({ ok: true, entries: 5, head_hash: entries[4]?.hash });
    expect(verifyChain([])).toEqual({ ok: true, entries: 0, head_hash: null });
  });

  it.each<[string, (e: LedgerEntry[]) => LedgerEntry[], { position: number; reason: string }]>([
    [
      "an edited field",
      (e) => e.map((x) => (x.position === 2 ? { ...x, decision: { decision: "approve" } } : x)),
      { position: 2, reason: "hash mismatch" },
    ],
    [
      "an edited actor",
      (e) => e.map((x) => (x.position === 4 ? { ...x, actor: "someone-else@example.com" } : x)),
      { position: 4, reason: "hash mismatch" },
    ],
    [
      "an edited entry given a fresh hash",
      (e) =>
        e.map((x) => {
          if (x.position !== 3) return x;
          const { hash: _, ...rest } = { ...x, effect: "approved" };
          return { ...rest, hash: entryHash(rest) };
        }),
      { position: 4, reason: "broken link" },
    ],
    ["a deleted entry", (e) => e.filter((x) => x.position !== 3), { position: 3, reason: "gap" }],
    [
      "reordered entries",
      (e) => [e[0], e[2], e[1], e[3], e[4]] as LedgerEntry[],
      { position: 3, reason: "broken link" },
    ],
    [
      "a renumbered chain without its first entry",
      (e) => e.slice(1).map((x) => ({ ...x, position: x.position - 1 })),
      { position: 1, reason: "hash mismatch" },
    ],
  ])("%s is found", (_name, tamper, first_bad) => {
    const verdict = verifyChain(tamper(chain(5)));
    expect(verdict.ok).toBe(false);
    expect(verdict.first_bad).toEqual(first_bad);
  });

  it("an entry of another run does not chain", () => {
    const mine = chain(2);
    const theirs = chain(3, "7f7e3b6c-1d2a-4b5c-8d9e-0a1b2c3d4e5f");
    const mixed = [...mine, { ...(theirs[2] as LedgerEntry), position: 3 }];
    expect(verifyChain(mixed).first_bad?.position).toBe(3);
  });
});

describe("describeEvent", () => {
  it("a request awaits review and hashes the output shown", () => {
    expect(
      describeEvent({
        type: "review_requested",
        data: { agent: "w", name: "Draft", output: "Hello", expected_output: "x" },
      }),
    ).toEqual({
      actor: "system",
      effect: "awaiting_review",
      decision: {},
      output_sha256: sha256Hex("Hello"),
    });
  });

  it("old decisions derive their effect; an edit is kept as hashes", () => {
    const back = describeEvent({
      type: "review_submitted",
      data: { decision: "reject", feedback: "More.", reviewer: "r@example.com" },
    });
    expect(back).toMatchObject({ actor: "r@example.com", effect: "sent_back" });
    expect(back.output_sha256).toBeNull();
    const edited = describeEvent({
      type: "review_submitted",
      data: {
        decision: "approve",
        feedback: "",
        reviewer: "r@example.com",
        edited: true,
        edited_output: "New",
        diff: "--- a\n+++ b",
      },
    });
    expect(edited).toMatchObject({
      effect: "approved",
      decision: {
        decision: "approve",
        edited: true,
        edited_output_sha256: sha256Hex("New"),
        diff_sha256: sha256Hex("--- a\n+++ b"),
      },
    });
  });

  it("new events: effect given, claims, timeouts, escalations", () => {
    expect(
      describeEvent({
        type: "review_submitted",
        data: {
          decision: "approve",
          reviewer: "a@example.com",
          effect: "approval_recorded",
          approvals: { count: 1, required: 2 },
          output_sha256: "ab",
        },
      }),
    ).toMatchObject({ effect: "approval_recorded", output_sha256: "ab" });
    expect(
      describeEvent({ type: "review_claimed", data: { by: "c@example.com", until: "t" } }),
    ).toMatchObject({ actor: "c@example.com", effect: "claimed", decision: { until: "t" } });
    expect(
      describeEvent({ type: "review_released", data: { by: "c@example.com", reason: "expired" } }),
    ).toMatchObject({ effect: "claim_expired" });
    expect(
      describeEvent({ type: "review_timed_out", data: { action: "escalate", deadline_at: "d" } }),
    ).toMatchObject({ actor: "system", effect: "escalate" });
    expect(
      describeEvent({ type: "review_escalated", data: { by: "system", to: ["leads"] } }),
    ).toMatchObject({ actor: "system", effect: "escalated", decision: { to: ["leads"] } });
  });
});
