import { z } from "zod";

// The decision ledger's API shapes (issue 15, item 6): a run's entries, and the chain's verdict.
const hex64 = z.string().regex(/^[0-9a-f]{64}$/, "64 hex digits");

export const LedgerEntrySchema = z
  .object({
    execution_id: z.uuid(),
    position: z.number().int().min(1).describe("1..n within the run, no gaps"),
    event_seq: z.number().int().describe("The execution event this entry records"),
    at: z.string().describe("When (ISO 8601, milliseconds): part of the hash as written"),
    actor: z.string().describe("The reviewer (e-mail or token name), or system"),
    action: z.string().describe("The review event: review_requested, review_submitted, …"),
    task_id: z.string().nullable(),
    attempt: z.number().int().nullable(),
    output_sha256: hex64.nullable().describe("SHA-256 of the output the reviewer saw (UTF-8)"),
    decision: z
      .record(z.string(), z.unknown())
      .describe(
        "What was decided or asked: decision, feedback, edited with the edit's and diff's hashes, response, approvals, assignees, claim…",
      ),
    effect: z
      .string()
      .describe("awaiting_review, approved, sent_back, approval_recorded, claimed, escalated, …"),
    prev_hash: hex64.describe("The previous entry's hash; 64 zeros for the first"),
    hash: hex64.describe(
      "SHA-256 over the canonical JSON (sorted keys) of every other field of the entry",
    ),
  })
  .meta({ id: "LedgerEntry" });

export const LedgerResponseSchema = z
  .object({
    execution_id: z.uuid(),
    crew: z.string(),
    entries: z.array(LedgerEntrySchema),
  })
  .meta({ id: "ExecutionLedger" });

export const LedgerVerdictSchema = z
  .object({
    ok: z.boolean(),
    entries: z.number().int(),
    head_hash: hex64.nullable().describe("The last entry's hash: keep it to detect truncation"),
    first_bad: z
      .object({
        position: z.number().int(),
        reason: z.enum(["hash mismatch", "broken link", "gap"]),
      })
      .optional()
      .describe("The first entry that does not verify, when the chain is broken"),
  })
  .meta({ id: "LedgerVerdict" });

export const LedgerQuerySchema = z.object({
  download: z
    .enum(["0", "1"], { error: "download must be 0 or 1" })
    .optional()
    .describe("1: as a file to save (Content-Disposition: attachment)"),
});

/** An export as the API gives it, or a bare list of entries: what `audit:verify --file` reads. */
export const LedgerExportSchema = z.union([
  z.object({ entries: z.array(LedgerEntrySchema) }),
  z.array(LedgerEntrySchema).transform((entries) => ({ entries })),
]);

export type LedgerEntry = z.infer<typeof LedgerEntrySchema>;
export type LedgerVerdict = z.infer<typeof LedgerVerdictSchema>;
