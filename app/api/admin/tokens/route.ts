// /api/admin/tokens — token management for `npm run token` while this server holds the embedded
// database. Only a caller that can read DATA_DIR (the local admin secret) gets in.

import type { z } from "zod";
import {
  createToken,
  LocalAdminTokenActionSchema,
  listTokens,
  revokeToken,
} from "@/lib/auth/manage-tokens";
import { hashToken, safeEqual } from "@/lib/auth/token-format";
import { localAdminSecret } from "@/lib/config/secrets";
import { CreatedTokenSchema, RevokedSchema, TokensListSchema } from "@/lib/contract/admin";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { json } from "@/lib/http/respond";
import { type NoParams, route } from "@/lib/http/routes";

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

export const GET = route({ ...localAdmin, response: TokensListSchema }, async () =>
  json({ tokens: await listTokens({ db: await getDb() }) }),
);

export const POST = route<void, NoParams, z.infer<typeof LocalAdminTokenActionSchema>>(
  {
    ...localAdmin,
    action: "secret",
    body: LocalAdminTokenActionSchema,
    bodyLimit: 16 * 1024,
    response: { 200: RevokedSchema, 201: CreatedTokenSchema },
  },
  async ({ body }) => {
    const db = await getDb();
    if (body.action === "create")
      return json(await createToken({ db, input: body.token }), { status: 201 });
    return json({ revoked: await revokeToken({ db, ref: body.ref }) });
  },
);
