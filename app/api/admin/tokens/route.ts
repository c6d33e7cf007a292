// /api/admin/tokens — token management for `npm run token` while this server holds the embedded
// database. Only a caller that can read DATA_DIR (the local admin secret) gets in.

import * as adminApi from "@/lib/api/endpoints/admin";
import { route } from "@/lib/api/route";
import { createToken, listTokens, revokeToken } from "@/lib/auth/manage-tokens";
import { hashToken, safeEqual } from "@/lib/auth/token-format";
import { localAdminSecret } from "@/lib/config/secrets";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

function checkLocalAdmin(request: Request) {
  const given = request.headers.get("x-crewdeck-local-admin") ?? "";
  if (!given || !safeEqual(hashToken(given), hashToken(localAdminSecret()))) {
    throw new AppError(
      "forbidden",
      403,
      "This endpoint is for `npm run token` on the server's machine.",
    );
  }
}

// The local admin secret is this caller's credential (and its rate-limit bucket).
const localAdmin = {
  caller: async (request: Request) => checkLocalAdmin(request),
  rateKey: () => "local-admin",
};

export const GET = route(
  adminApi.localAdminListTokens,
  async () => json({ tokens: await listTokens({ db: await getDb() }) }),
  localAdmin,
);

export const POST = route(
  adminApi.localAdminTokenAction,
  async ({ body }) => {
    const db = await getDb();
    if (body.action === "create")
      return json(await createToken({ db, input: body.token }), { status: 201 });
    return json({ revoked: await revokeToken({ db, ref: body.ref }) });
  },
  localAdmin,
);
