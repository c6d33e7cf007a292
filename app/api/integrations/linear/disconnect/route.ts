// POST /api/integrations/linear/disconnect — revoke the token at Linear and forget it here.

import * as integrationsApi from "@/lib/api/endpoints/integrations";
import { apiRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { describeLinearOAuth, disconnect } from "@/lib/tracker/linear/oauth";

export const dynamic = "force-dynamic";

export const POST = apiRoute(integrationsApi.disconnectLinear, async () => {
  const db = await getDb();
  await disconnect(db);
  return json(await describeLinearOAuth(db));
});
