// POST /api/setup — first-run setup over HTTP: {code, email, name?, password} creates the first
// administrator. No token (nobody has one yet); the setup code printed at start is the credential.
// 400 malformed body, 422 missing/invalid fields, 403 wrong code, 409 already set up,
// 429 too many wrong codes.
import { runFirstSetup, SetupRequest } from "@/lib/auth/sign-in-setup";
import { UserRowSchema } from "@/lib/contract/admin";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { noCaller, route } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

export const POST = route(
  {
    ...noCaller,
    action: "secret",
    body: SetupRequest,
    bodyLimit: 16 * 1024,
    invalid: 422,
    response: UserRowSchema,
  },
  async ({ request, body }) => {
    const user = await runFirstSetup(await getDb(), body, request.headers);
    return json(user, { status: 201 });
  },
);
