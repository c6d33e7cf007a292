// /api/integrations/linear — the OAuth connection to Linear: what it is (GET; never a token) and
// the OAuth application's id and secret (PUT; the secret sealed at rest).
import { getDb } from "@/lib/db";
import { errors, zodFieldErrors } from "@/lib/errors";
import { readJsonBody, requireObject } from "@/lib/http/read-json";
import { json } from "@/lib/http/respond";
import { apiRoute } from "@/lib/http/routes";
import { describeLinearOAuth, OAuthAppSchema, saveOAuthApp } from "@/lib/tracker/linear/oauth";

export const dynamic = "force-dynamic";

export const GET = apiRoute(async () => json(await describeLinearOAuth(await getDb())), {
  action: "manage",
});

export const PUT = apiRoute(
  async ({ request }) => {
    const parsed = OAuthAppSchema.safeParse(requireObject(await readJsonBody(request, 8 * 1024)));
    if (!parsed.success)
      throw errors.unprocessable("Invalid OAuth application.", {
        errors: zodFieldErrors(parsed.error),
      });
    const db = await getDb();
    await saveOAuthApp(db, parsed.data);
    return json(await describeLinearOAuth(db));
  },
  { action: "manage" },
);
