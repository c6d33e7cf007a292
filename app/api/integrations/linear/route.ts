// /api/integrations/linear — the OAuth connection to Linear: what it is (GET; never a token) and
// the OAuth application's id and secret (PUT; the secret sealed at rest).
import { LinearOAuthViewSchema } from "@/lib/contract/integrations";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { apiRoute } from "@/lib/http/routes";
import { describeLinearOAuth, OAuthAppSchema, saveOAuthApp } from "@/lib/tracker/linear/oauth";

export const dynamic = "force-dynamic";

export const GET = apiRoute(async () => json(await describeLinearOAuth(await getDb())), {
  action: "manage",
  response: LinearOAuthViewSchema,
});

export const PUT = apiRoute(
  async ({ body }) => {
    const db = await getDb();
    await saveOAuthApp(db, body);
    return json(await describeLinearOAuth(db));
  },
  {
    action: "manage",
    body: OAuthAppSchema,
    bodyLimit: 8 * 1024,
    invalid: 422,
    response: LinearOAuthViewSchema,
  },
);
