import crypto from "node:crypto";
import { z } from "zod";
import { hashToken } from "@/lib/auth/token-format";
import { seal, unseal } from "@/lib/config/encryption";
import { env } from "@/lib/config/env";
import { publicUrl } from "@/lib/config/public-url";
import { num } from "@/lib/db/columns";
import { writeSetting } from "@/lib/db/settings";
import type { Db } from "@/lib/db/types";
import { CALLBACK_PATH, type Connection, LINEAR_SCOPES, OAuthFailure, oauthApp } from "./oauth";
import { scopesOf, tokenRequest, workspaceOf } from "./oauth-tokens";

// Connect Linear: the authorization code flow with PKCE. The state is bound to the administrator
// who clicked Connect (and their browser), used once, good for 10 minutes; nothing is saved until
// every check passed.

const STATE_TTL_MS = 10 * 60_000;

const base64url = (b: Buffer) => b.toString("base64url");

// The browser that clicked Connect carries the state's hash in a short-lived cookie, so the
// answer is accepted only in that same browser session, not merely for the same person.
const STATE_COOKIE = "crewdeck_linear_oauth";

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
  const { rows } = await db.query(
    `UPDATE oauth_states s SET used_at = now()
       FROM (SELECT state_hash, used_at IS NOT NULL AS used FROM oauth_states WHERE state_hash = $1 FOR UPDATE) before
      WHERE s.state_hash = before.state_hash
      RETURNING s.user_id, s.verifier_sealed, before.used,
                (EXTRACT(EPOCH FROM now() - s.created_at) * 1000)::float8 AS age_ms`,
    [hashToken(state)],
    z.object({ user_id: z.string(), verifier_sealed: z.string(), age_ms: num, used: z.boolean() }),
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
