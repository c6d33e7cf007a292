// /api/admin/tokens — token management for `npm run token` while this server holds the embedded
// database. Only a caller that can read DATA_DIR (the local admin secret) gets in.

import { z } from "zod";
import { CreateTokenSchema, createToken, listTokens, revokeToken } from "@/lib/auth/manage-tokens";
import { hashToken, safeEqual } from "@/lib/auth/token-format";
import { localAdminSecret } from "@/lib/config/secrets";
import { getDb } from "@/lib/db";
import { AppError, errors, zodFieldErrors } from "@/lib/errors";
import { toProblem } from "@/lib/http/problem";
import { readJsonBody, requireObject } from "@/lib/http/read-json";
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

const ActionSchema = z.discriminatedUnion("action", [
  z.object({ action: z.literal("create"), token: CreateTokenSchema }),
  z.object({ action: z.literal("revoke"), ref: z.string().min(1) }),
]);

export async function GET(request: Request) {
  try {
    checkLocalAdmin(request);
    return json({ tokens: await listTokens({ db: await getDb() }) });
  } catch (err) {
    return toProblem(err);
  }
}

export async function POST(request: Request) {
  try {
    checkLocalAdmin(request);
    const parsed = ActionSchema.safeParse(requireObject(await readJsonBody(request, 16 * 1024)));
    if (!parsed.success)
      throw errors.unprocessable("Invalid token request.", {
        errors: zodFieldErrors(parsed.error),
      });
    const db = await getDb();
    if (parsed.data.action === "create")
      return json(await createToken({ db, input: parsed.data.token }), { status: 201 });
    return json({ revoked: await revokeToken({ db, ref: parsed.data.ref }) });
  } catch (err) {
    return toProblem(err);
  }
}
