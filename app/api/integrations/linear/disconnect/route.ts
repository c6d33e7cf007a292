// POST /api/integrations/linear/disconnect — revoke the token at Linear and forget it here.
import { LinearOAuthViewSchema } from "@/lib/contract/integrations";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { apiRoute } from "@/lib/http/routes";
import { describeLinearOAuth, disconnect } from "@/lib/tracker/linear/oauth";

export const dynamic = "force-dynamic";

export const POST = apiRoute(
  async () => {
    const db = await getDb();
    await disconnect(db);
    return json(await describeLinearOAuth(db));
  },
  { action: "manage", response: LinearOAuthViewSchema },
);
