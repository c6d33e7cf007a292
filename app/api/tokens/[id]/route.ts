// DELETE /api/tokens/{id} — revoke a token (administrators: any; others: their own).

import * as adminApi from "@/lib/api/endpoints/admin";
import { apiRoute } from "@/lib/api/route";
import { revokeTokenById } from "@/lib/auth/manage-tokens";
import { getDb } from "@/lib/db";

export const dynamic = "force-dynamic";

export const DELETE = apiRoute(adminApi.revokeToken, async ({ principal, params }) => {
  await revokeTokenById({
    db: await getDb(),
    id: params.id,
    userId: principal.role === "admin" ? undefined : principal.userId,
  });
  return new Response(null, { status: 204 });
});
