import { z } from "zod";
import { seal, unseal } from "@/lib/config/encryption";
import { env } from "@/lib/config/env";
import { publicUrl } from "@/lib/config/public-url";
import { readSetting, writeSetting } from "@/lib/db/settings";
import type { Db } from "@/lib/db/types";

// Connecting Linear the way the platform does: OAuth 2.0 authorization code with PKCE
// (./oauth-authorize.ts), tokens sealed at rest and refreshed before they expire
// (./oauth-tokens.ts). Here: the OAuth application, the saved connection and its settings page.

/** `read` for searches and lookups; `write` for creating, updating, archiving and deleting. */
export const LINEAR_SCOPES = ["read", "write"] as const;
export const CALLBACK_PATH = "/api/integrations/linear/callback";

export const OAuthAppSchema = z
  .object({
    client_id: z.string().trim().min(1, "client_id is required").max(200),
    client_secret: z.string().trim().min(1, "client_secret is required").max(500),
  })
  .meta({ id: "LinearOAuthApp" });

const SavedApp = z.object({ client_id: z.string(), client_secret_sealed: z.string() });
type SavedApp = z.infer<typeof SavedApp>;
const Connection = z.object({
  status: z.enum(["connected", "revoked"]),
  access_sealed: z.string(),
  refresh_sealed: z.string().nullable(),
  expires_at: z.string().nullable(),
  scopes: z.array(z.string()),
  workspace: z.string(),
  connected_by: z.string(),
  connected_at: z.string(),
});
export type Connection = z.infer<typeof Connection>;

/** The OAuth application: from the environment, or saved on the Integrations page. */
export async function oauthApp(db: Db) {
  const e = env();
  if (e.LINEAR_CLIENT_ID && e.LINEAR_CLIENT_SECRET)
    return {
      id: e.LINEAR_CLIENT_ID,
      secret: e.LINEAR_CLIENT_SECRET,
      source: "environment" as const,
    };
  const saved = await readSetting(db, "linear_oauth_app", SavedApp);
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

export const readConnection = (db: Db) => readSetting(db, "linear_oauth", Connection);

/** Back to the settings page, with what happened in its query (shown there). */
export function settingsRedirect(params: Record<string, string>) {
  return Response.redirect(`${publicUrl()}/settings?${new URLSearchParams(params)}`, 303);
}

/** A failed connection, in words for the settings page. */
export class OAuthFailure extends Error {}

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
