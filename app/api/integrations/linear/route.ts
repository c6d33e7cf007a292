// /api/integrations/linear — the OAuth connection to Linear: what it is (GET; never a token) and
// the OAuth application's id and secret (PUT; the secret sealed at rest).

import * as integrationsApi from "@/lib/api/endpoints/integrations";
import { apiRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { describeLinearOAuth, saveOAuthApp } from "@/lib/tracker/linear/oauth";

export const dynamic = "force-dynamic";

export const GET = apiRoute(integrationsApi.linearOAuth, async () =>
  json(await describeLinearOAuth(await getDb())),
);

export const PUT = apiRoute(integrationsApi.saveLinearOAuthApp, async ({ body }) => {
  const db = await getDb();
  await saveOAuthApp(db, body);
  return json(await describeLinearOAuth(db));
});
