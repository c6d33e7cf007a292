import crypto from "node:crypto";
import {
  displayPrefix,
  generateToken,
  hashToken,
  looksLikeToken,
  safeEqual,
} from "@/lib/auth/token-format";
import { env } from "@/lib/config/env";
import { dataDirSecret } from "@/lib/config/secrets";
import { type IntegrationTokenRow, IntegrationTokenRowSchema } from "@/lib/contract/integrations";
import type { Db } from "@/lib/db/types";
import { isOneOf } from "@/lib/util/one-of";
import { TrackerError } from "./errors";
import { ACTION_NAMES, type ActionName } from "./schemas";

export type IntegrationAccess = "read" | "write";

/** The runtime's own token: the environment's, or one generated into DATA_DIR. It may write. */
export function integrationToken(): string {
  return env().SERVICE_PLATFORM_INTEGRATION_TOKEN ?? dataDirSecret("integration-token");
}

export const READ_ACTIONS = new Set<ActionName>([
  "get_issue_by_id",
  "get_issue_by_issue_identifier",
  "search_issue",
  "get_project_by_id",
  "search_teams",
]);

/** What the bearer of this request may do: 401 without a valid integration token. */
export async function integrationAccess(db: Db, request: Request): Promise<IntegrationAccess> {
  const m = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization")?.trim() ?? "");
  const token = m?.[1];
  const unauthorized = () =>
    new TrackerError(
      "permission_denied",
      "Send an integration token (SERVICE_PLATFORM_INTEGRATION_TOKEN) as `Authorization: Bearer <token>`.",
      401,
    );
  if (!token) throw unauthorized();
  if (safeEqual(hashToken(token), hashToken(integrationToken()))) return "write";
  if (!looksLikeToken(token)) throw unauthorized();
  const { rows } = await db.query(
    "UPDATE integration_tokens SET last_used_at = now() WHERE token_hash = $1 AND revoked_at IS NULL RETURNING access",
    [hashToken(token)],
    IntegrationTokenRowSchema.pick({ access: true }),
  );
  if (!rows[0]) throw unauthorized();
  return rows[0].access;
}

/** A read-only token may look, not change: the seed's "account lacks permission". */
export function assertAllowed(access: IntegrationAccess, action: string) {
  if (access === "read" && !(isOneOf(ACTION_NAMES, action) && READ_ACTIONS.has(action))) {
    throw new TrackerError(
      "permission_denied",
      `This integration token may only read (get and search actions); '${action}' changes the tracker. Use a token with write access.`,
    );
  }
}

export async function createIntegrationToken(
  db: Db,
  { access, label }: { access: IntegrationAccess; label?: string },
) {
  const token = generateToken("integration");
  const id = crypto.randomUUID();
  await db.query(
    "INSERT INTO integration_tokens (id, token_hash, display_prefix, label, access) VALUES ($1, $2, $3, $4, $5)",
    [id, hashToken(token), displayPrefix(token), label ?? null, access],
  );
  return { id, token, access };
}

// A token as listed is its row, as the API shows it (timestamps read as text).
export type IntegrationTokenSummary = IntegrationTokenRow;

export async function listIntegrationTokens(db: Db): Promise<IntegrationTokenSummary[]> {
  const { rows } = await db.query(
    `SELECT id, display_prefix AS prefix, label, access, created_at::text, last_used_at::text, revoked_at::text
       FROM integration_tokens ORDER BY created_at`,
    [],
    IntegrationTokenRowSchema,
  );
  return rows;
}

export async function revokeIntegrationToken(db: Db, id: string) {
  const { rowCount } = await db.query(
    "UPDATE integration_tokens SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1",
    [id],
  );
  if (!rowCount) throw new TrackerError("not_found", `No integration token '${id}'.`);
}
