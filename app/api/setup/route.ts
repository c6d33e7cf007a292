// POST /api/setup — first-run setup over HTTP: {code, email, name?, password} creates the first
// administrator. No token (nobody has one yet); the setup code printed at start is the credential.
// 400 malformed body, 422 missing/invalid fields, 403 wrong code, 409 already set up,
// 429 too many wrong codes.
import { runFirstSetup } from "@/lib/auth/sign-in-setup";
import { getDb } from "@/lib/db";
import { readJsonBody, requireObject } from "@/lib/http/read-json";
import { json } from "@/lib/http/respond";
import { noCaller, route } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

export const POST = route(noCaller, async ({ request }) => {
  const body = requireObject(await readJsonBody(request, 16 * 1024));
  const user = await runFirstSetup(await getDb(), body, request.headers);
  return json(user, { status: 201 });
});
