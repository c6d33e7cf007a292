import crypto from "node:crypto";
import { z } from "zod";
import { hashToken } from "@/lib/auth/token-format";
import { seal, unseal } from "@/lib/config/encryption";
import { env } from "@/lib/config/env";
import { publicUrl } from "@/lib/config/public-url";
import { readSetting, writeSetting } from "@/lib/db/settings";
import type { Db } from "@/lib/db/types";
import { errorMessage } from "@/lib/errors";

// Connecting Linear the way the platform does: OAuth 2.0 authorization code with PKCE. The state
// is bound to the administrator who clicked Connect, used once, good for 10 minutes; tokens are
// sealed at rest and refreshed before they expire. Nothing is saved until every check passed.

/** `read` for searches and lookups; `write` for creating, updating, archiving and deleting. */
export const LINEAR_SCOPES = ["read", "write"] as const;
const STATE_TTL_MS = 10 * 60_000;
const CALLBACK_PATH = "/api/integrations/linear/callback";

export const OAuthAppSchema = z
  .object({
    client_id: z.string().trim().min(1, "client_id is required").max(200),
    client_secret: z.string().trim().min(1, "client_secret is required").max(500),
  })
  .meta({ id: "LinearOAuthApp" });

type SavedApp = { client_id: string; client_secret_sealed: string };
export type Connection = {
  status: "connected" | "revoked";
  access_sealed: string;
  refresh_sealed: string | null;
  expires_at: string | null;
  scopes: string[];
  workspace: string;
  connected_by: string;
  connected_at: string;
};

/** The OAuth application: from the environment, or saved on the Integrations page. */
export async function oauthApp(db: Db) {
  const e = env();
  if (e.LINEAR_CLIENT_ID && e.LINEAR_CLIENT_SECRET)
    return {
      id: e.LINEAR_CLIENT_ID,
      secret: e.LINEAR_CLIENT_SECRET,
      source: "environment" as const,
    };
  const saved = await readSetting<SavedApp>(db, "linear_oauth_app");
  if (!saved) return undefined;
  return {
    id: saved.client_id,
    secret: unseal(saved.client_secret_sealed),
    source: "settings" as const,
  };
}

export async function saveOAuthApp(db: Db, app: z.infer<typeof OAuthAppSchema>) {
  await writeSetting(db, "linear_oauth_app", {
    client_id: app.client_id,
    client_secret_sealed: seal(app.client_secret),
  } satisfies SavedApp);
}

export const readConnection = (db: Db) => readSetting<Connection>(db, "linear_oauth");

const base64url = (b: Buffer) => b.toString("base64url");

// The browser that clicked Connect carries the state's hash in a short-lived cookie, so the
// answer is accepted only in that same browser session, not merely for the same person.
export const STATE_COOKIE = "crewdeck_linear_oauth";

/** The redirect to Linear's consent page, setting the cookie that binds the state to this browser. */
export function consentRedirect({ url, state }: { url: string; state: string }) {
  const secure = publicUrl().startsWith("https:") ? "; Secure" : "";
  return new Response(null, {
    status: 302,
    headers: {
      location: url,
      "set-cookie": `${STATE_COOKIE}=${hashToken(state)}; Path=/api/integrations/linear; Max-Age=600; HttpOnly; SameSite=Lax${secure}`,
    },
  });
}

const stateCookieOf = (cookieHeader: string | null) =>
  new RegExp(`(?:^|;\\s*)${STATE_COOKIE}=([^;]+)`).exec(cookieHeader ?? "")?.[1];

/** Where Connect Linear sends the browser: Linear's consent page, with state and PKCE. */
export async function startAuthorization(
  db: Db,
  userId: string,
): Promise<{ url: string; state: string }> {
  const app = await oauthApp(db);
  if (!app)
    throw new OAuthFailure(
      "Linear's OAuth application is not configured: set LINEAR_CLIENT_ID and LINEAR_CLIENT_SECRET, or save them on this page.",
    );
  const state = base64url(crypto.randomBytes(32));
  const verifier = base64url(crypto.randomBytes(32));
  const challenge = base64url(crypto.createHash("sha256").update(verifier).digest());
  await db.query("DELETE FROM oauth_states WHERE created_at < now() - interval '1 day'");
  await db.query(
    "INSERT INTO oauth_states (state_hash, user_id, verifier_sealed) VALUES ($1, $2, $3)",
    [hashToken(state), userId, seal(verifier)],
  );
  const url = new URL(env().LINEAR_OAUTH_AUTHORIZE_URL);
  url.search = new URLSearchParams({
    client_id: app.id,
    redirect_uri: publicUrl() + CALLBACK_PATH,
    response_type: "code",
    scope: LINEAR_SCOPES.join(","),
    state,
    code_challenge: challenge,
    code_challenge_method: "S256",
    prompt: "consent",
  }).toString();
  return { url: url.toString(), state };
}

/** Back to the settings page, with what happened in its query (shown there). */
export function settingsRedirect(params: Record<string, string>) {
  return Response.redirect(`${publicUrl()}/settings?${new URLSearchParams(params)}`, 303);
}

/** A failed connection, in words for the settings page. */
export class OAuthFailure extends Error {}

const TokenSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.number().positive().optional(),
  refresh_token: z.string().min(1).optional(),
  scope: z.union([z.string(), z.array(z.string())]).optional(),
});

async function tokenRequest(params: Record<string, string>) {
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
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) {
    const code = typeof body.error === "string" ? body.error : `HTTP ${res.status}`;
    const detail = typeof body.error_description === "string" ? `: ${body.error_description}` : "";
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

const scopesOf = (scope: string | string[] | undefined) =>
  (Array.isArray(scope) ? scope : (scope ?? "").split(/[\s,]+/)).filter(Boolean);

async function workspaceOf(accessToken: string) {
  try {
    const res = await fetch(env().LINEAR_API_URL, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${accessToken}` },
      body: JSON.stringify({ query: "query Workspace { organization { name urlKey } }" }),
      signal: AbortSignal.timeout(15_000),
    });
    const body = (await res.json()) as { data?: { organization?: { name?: string } } };
    return body.data?.organization?.name ?? "Linear";
  } catch {
    return "Linear";
  }
}

/**
 * The redirect back from Linear: checks the state (known, this person's, unused, fresh), then
 * exchanges the code with the PKCE verifier, and only then saves the connection.
 */
export async function completeAuthorization(
  db: Db,
  {
    userId,
    email,
    query,
    cookie,
  }: { userId: string; email: string; query: URLSearchParams; cookie: string | null },
) {
  const state = query.get("state");
  if (!state)
    throw new OAuthFailure("The answer from Linear has no state; click Connect Linear again.");
  const { rows } = await db.query<{
    user_id: string;
    verifier_sealed: string;
    age_ms: number;
    used: boolean;
  }>(
    `UPDATE oauth_states s SET used_at = now()
       FROM (SELECT state_hash, used_at IS NOT NULL AS used FROM oauth_states WHERE state_hash = $1 FOR UPDATE) before
      WHERE s.state_hash = before.state_hash
      RETURNING s.user_id, s.verifier_sealed, before.used,
                (EXTRACT(EPOCH FROM now() - s.created_at) * 1000)::float8 AS age_ms`,
    [hashToken(state)],
  );
  const saved = rows[0];
  if (!saved)
    throw new OAuthFailure(
      "The state does not match any Connect Linear request; click Connect Linear again.",
    );
  if (saved.used)
    throw new OAuthFailure("This answer from Linear was already used; click Connect Linear again.");
  if (saved.user_id !== userId || stateCookieOf(cookie) !== hashToken(state))
    throw new OAuthFailure(
      "This answer from Linear belongs to another session (another person, or another browser); click Connect Linear again.",
    );
  if (saved.age_ms > STATE_TTL_MS)
    throw new OAuthFailure(
      "The Connect Linear request expired (10 minutes); click Connect Linear again.",
    );
  const error = query.get("error");
  if (error)
    throw new OAuthFailure(
      error === "access_denied"
        ? "Access was denied on Linear's consent page; nothing was connected."
        : `Linear answered ${error}${query.get("error_description") ? `: ${query.get("error_description")}` : ""}.`,
    );
  const code = query.get("code");
  if (!code)
    throw new OAuthFailure(
      "The answer from Linear has no authorization code; click Connect Linear again.",
    );
  const app = await oauthApp(db);
  if (!app) throw new OAuthFailure("Linear's OAuth application is no longer configured.");
  const token = await tokenRequest({
    grant_type: "authorization_code",
    code,
    redirect_uri: publicUrl() + CALLBACK_PATH,
    client_id: app.id,
    client_secret: app.secret,
    code_verifier: unseal(saved.verifier_sealed),
  });
  const scopes = scopesOf(token.scope);
  const connection: Connection = {
    status: "connected",
    access_sealed: seal(token.access_token),
    refresh_sealed: token.refresh_token ? seal(token.refresh_token) : null,
    expires_at: token.expires_in
      ? new Date(Date.now() + token.expires_in * 1000).toISOString()
      : null,
    scopes: scopes.length ? scopes : [...LINEAR_SCOPES],
    workspace: await workspaceOf(token.access_token),
    connected_by: email,
    connected_at: new Date().toISOString(),
  };
  await writeSetting(db, "linear_oauth", connection);
  return connection;
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

/** Linear no longer takes the token (revoked there): shown as disconnected until reconnected. */
export async function markRevoked(db: Db) {
  await db.query(
    `UPDATE settings SET value = jsonb_set(value, '{status}', '"revoked"'), updated_at = now()
      WHERE key = 'linear_oauth'`,
  );
}

/** Disconnect: revoke the token at Linear (best effort) and forget it here. */
export async function disconnect(db: Db) {
  const c = await readConnection(db);
  if (!c) return;
  await fetch(env().LINEAR_OAUTH_REVOKE_URL, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Bearer ${unseal(c.access_sealed)}`,
    },
    body: new URLSearchParams({ token: unseal(c.access_sealed) }),
    signal: AbortSignal.timeout(10_000),
  }).catch(() => {});
  await db.query("DELETE FROM settings WHERE key = 'linear_oauth'");
}

/** What the settings page shows: never a token. */
export async function describeLinearOAuth(db: Db) {
  const app = await oauthApp(db).catch(() => undefined);
  const c = await readConnection(db);
  return {
    app_configured: Boolean(app),
    app_source: app?.source ?? null,
    client_id: app?.id ?? null,
    scopes_requested: [...LINEAR_SCOPES],
    redirect_uri: publicUrl() + CALLBACK_PATH,
    connection: c
      ? {
          status: c.status,
          workspace: c.workspace,
          connected_by: c.connected_by,
          connected_at: c.connected_at,
          scopes: c.scopes,
        }
      : null,
  };
}
