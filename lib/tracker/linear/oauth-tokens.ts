import { z } from "zod";
import { seal, unseal } from "@/lib/config/encryption";
import { env } from "@/lib/config/env";
import { writeSetting } from "@/lib/db/settings";
import type { Db } from "@/lib/db/types";
import { errorMessage } from "@/lib/errors";
import { type Connection, markRevoked, OAuthFailure, oauthApp, readConnection } from "./oauth";

// Linear's token endpoint: codes and refresh tokens exchanged for access tokens, and the access
// token each call uses.

const TokenSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.number().positive().optional(),
  refresh_token: z.string().min(1).optional(),
  scope: z.union([z.string(), z.array(z.string())]).optional(),
});

// What a refusal says, when it says it as OAuth does (RFC 6749 §5.2).
const TokenErrorSchema = z
  .object({
    error: z.string().optional().catch(undefined),
    error_description: z.string().optional().catch(undefined),
  })
  .catch({});

const WorkspaceSchema = z.object({
  data: z.object({ organization: z.object({ name: z.string().optional() }).nullish() }).nullish(),
});

export async function tokenRequest(params: Record<string, string>) {
  let res: Response;
  try {
    res = await fetch(env().LINEAR_OAUTH_TOKEN_URL, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams(params),
      redirect: "error",
      signal: AbortSignal.timeout(15_000),
    });
  } catch (err) {
    throw new OAuthFailure(`Linear's token endpoint cannot be reached: ${errorMessage(err)}.`);
  }
  const body: unknown = await res.json().catch(() => ({}));
  if (!res.ok) {
    const refusal = TokenErrorSchema.parse(body);
    const code = refusal.error ?? `HTTP ${res.status}`;
    const detail = refusal.error_description !== undefined ? `: ${refusal.error_description}` : "";
    const hint =
      code === "invalid_grant"
        ? " The authorization code has expired or was already used; click Connect Linear again."
        : "";
    throw new OAuthFailure(`Linear refused the token request (${code}${detail}).${hint}`);
  }
  const parsed = TokenSchema.safeParse(body);
  if (!parsed.success)
    throw new OAuthFailure("Linear's token endpoint answered without an access_token.");
  return parsed.data;
}

export const scopesOf = (scope: string | string[] | undefined) =>
  (Array.isArray(scope) ? scope : (scope ?? "").split(/[\s,]+/)).filter(Boolean);

export async function workspaceOf(accessToken: string) {
  try {
    const res = await fetch(env().LINEAR_API_URL, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${accessToken}` },
      body: JSON.stringify({ query: "query Workspace { organization { name urlKey } }" }),
      signal: AbortSignal.timeout(15_000),
    });
    const body = WorkspaceSchema.parse(await res.json());
    return body.data?.organization?.name ?? "Linear";
  } catch {
    return "Linear";
  }
}

/**
 * The access token for a call, refreshed first when it expires within a minute. Undefined when
 * no connection is active.
 */
export async function oauthAccess(
  db: Db,
): Promise<{ token: string; scopes: string[] } | undefined> {
  const c = await readConnection(db);
  if (c?.status !== "connected") return undefined;
  const expiring = c.expires_at && Date.parse(c.expires_at) - Date.now() < 60_000;
  if (expiring && c.refresh_sealed) {
    const app = await oauthApp(db);
    if (app) {
      const token = await tokenRequest({
        grant_type: "refresh_token",
        refresh_token: unseal(c.refresh_sealed),
        client_id: app.id,
        client_secret: app.secret,
      }).catch(async (err) => {
        await markRevoked(db);
        throw err;
      });
      const refreshed: Connection = {
        ...c,
        access_sealed: seal(token.access_token),
        refresh_sealed: token.refresh_token ? seal(token.refresh_token) : c.refresh_sealed,
        expires_at: token.expires_in
          ? new Date(Date.now() + token.expires_in * 1000).toISOString()
          : null,
        scopes: token.scope ? scopesOf(token.scope) : c.scopes,
      };
      await writeSetting(db, "linear_oauth", refreshed);
      return { token: token.access_token, scopes: refreshed.scopes };
    }
  }
  return { token: unseal(c.access_sealed), scopes: c.scopes };
}
