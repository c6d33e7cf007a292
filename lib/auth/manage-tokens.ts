import crypto from "node:crypto";
import { z } from "zod";
import { type TokenRow, TokenRowSchema } from "@/lib/contract/admin";
import { IdRow } from "@/lib/db/columns";
import type { Db } from "@/lib/db/types";
import { errors } from "@/lib/errors";
import { createIntegrationToken } from "@/lib/tracker/integration-token";
import { forgetCachedTokens } from "./authenticate";
import { displayPrefix, generateToken, hashToken } from "./token-format";

export const CreateTokenSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("org"), label: z.string().max(200).optional() }),
  z.object({
    kind: z.literal("user"),
    email: z.email("must be an email address"),
    label: z.string().max(200).optional(),
  }),
  // For agent runtimes calling tracker actions (the seed's Enterprise Token).
  z.object({
    kind: z.literal("integration"),
    access: z.enum(["read", "write"]).default("write"),
    label: z.string().max(200).optional(),
  }),
]);
export type CreateTokenInput = z.input<typeof CreateTokenSchema>;

// POST /api/admin/tokens: what `npm run token` asks of the server that holds the embedded database.
export const LocalAdminTokenActionSchema = z
  .discriminatedUnion("action", [
    z.object({ action: z.literal("create"), token: CreateTokenSchema }),
    z.object({ action: z.literal("revoke"), ref: z.string().min(1) }),
  ])
  .meta({ id: "LocalAdminTokenAction" });

// A token as listed is its row, as the API shows it (timestamps read as text).
export type TokenSummary = TokenRow;

/** Creates a token and returns it in clear — the only time it exists outside the caller. */
export async function createToken({ db, input: raw }: { db: Db; input: CreateTokenInput }) {
  const input = CreateTokenSchema.parse(raw);
  if (input.kind === "integration")
    return createIntegrationToken(db, { access: input.access, label: input.label });
  const token = generateToken(input.kind);
  const id = crypto.randomUUID();
  await db.tx(async (q) => {
    let userId: string | null = null;
    if (input.kind === "user") {
      const email = input.email.toLowerCase();
      const { rows } = await q.query(
        `INSERT INTO users (id, email) VALUES ($1, $2)
         ON CONFLICT (email) DO UPDATE SET email = EXCLUDED.email RETURNING id`,
        [crypto.randomUUID(), email],
        IdRow,
      );
      userId = rows[0]?.id ?? null;
    }
    await q.query(
      `INSERT INTO api_tokens (id, kind, user_id, token_hash, display_prefix, label)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [id, input.kind, userId, hashToken(token), displayPrefix(token), input.label ?? null],
    );
  });
  return { id, token };
}

/** Revokes by id, by the token itself, or by its displayed prefix; returns how many were revoked. */
export async function revokeToken({ db, ref }: { db: Db; ref: string }) {
  const byId = z.uuid().safeParse(ref).success;
  const rowCount = await db.tx(async (q) => {
    const res = await q.query(
      `UPDATE api_tokens SET revoked_at = now()
        WHERE revoked_at IS NULL AND ${byId ? "id = $1::uuid" : "(token_hash = $1 OR display_prefix = $2)"}`,
      byId ? [ref] : [hashToken(ref), ref.endsWith("…") ? ref : `${ref}…`],
    );
    const integration = await q.query(
      `UPDATE integration_tokens SET revoked_at = now()
        WHERE revoked_at IS NULL AND ${byId ? "id = $1::uuid" : "(token_hash = $1 OR display_prefix = $2)"}`,
      byId ? [ref] : [hashToken(ref), ref.endsWith("…") ? ref : `${ref}…`],
    );
    // Every server process drops its cached verdicts when this commits (see authenticate.ts).
    await q.query("SELECT pg_notify('crewdeck_tokens', 'revoked')");
    return res.rowCount + integration.rowCount;
  });
  forgetCachedTokens();
  return rowCount;
}

/** All tokens, or (with `userId`) that user's own. */
export async function listTokens({
  db,
  userId,
}: {
  db: Db;
  userId?: string;
}): Promise<TokenSummary[]> {
  const { rows } = await db.query(
    `SELECT t.id, t.kind, u.email, t.display_prefix AS prefix, t.label,
            t.created_at::text, t.last_used_at::text, t.revoked_at::text
       FROM api_tokens t LEFT JOIN users u ON u.id = t.user_id
      ${userId ? "WHERE t.user_id = $1" : ""}
      ORDER BY t.created_at`,
    userId ? [userId] : [],
    TokenRowSchema,
  );
  return rows;
}

/** Revokes one token by id; with `userId`, only if it is that user's. */
export async function revokeTokenById({ db, id, userId }: { db: Db; id: string; userId?: string }) {
  if (!z.uuid().safeParse(id).success) throw errors.notFound(`No token '${id}'.`);
  const n = await db.tx(async (q) => {
    const res = await q.query(
      `UPDATE api_tokens SET revoked_at = COALESCE(revoked_at, now())
        WHERE id = $1 ${userId ? "AND user_id = $2" : ""}`,
      userId ? [id, userId] : [id],
    );
    await q.query("SELECT pg_notify('crewdeck_tokens', 'revoked')");
    return res.rowCount;
  });
  forgetCachedTokens();
  if (!n) throw errors.notFound(`No token '${id}'.`);
}
