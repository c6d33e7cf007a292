// POST /api/setup — first-run setup over HTTP: {code, email, name?, password} creates the first
// administrator. No token (nobody has one yet); the setup code printed at start is the credential.
// 400 malformed body, 422 missing/invalid fields, 403 wrong code, 409 already set up,
// 429 too many wrong codes.

import * as adminApi from "@/lib/api/endpoints/admin";
import { noCaller, route } from "@/lib/api/route";
import { runFirstSetup } from "@/lib/auth/sign-in-setup";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const POST = route(
  adminApi.setup,
  async ({ request, body }) => {
    const user = await runFirstSetup(await getDb(), body, request.headers);
    return json(user, { status: 201 });
  },
  noCaller,
);
