// POST /api/setup — first-run setup over HTTP: {code, email, name?, password} creates the first
// administrator. No token (nobody has one yet); the setup code printed at start is the credential.
// 400 malformed body, 422 missing/invalid fields, 403 wrong code, 409 already set up,
// 429 too many wrong codes.
import { runFirstSetup } from "@/lib/auth/sign-in-setup";
import { getDb } from "@/lib/db";
import { toProblem } from "@/lib/http/problem";
import { readJsonBody, requireObject } from "@/lib/http/read-json";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export async function POST(request: Request) {
  try {
    const body = requireObject(await readJsonBody(request, 16 * 1024));
    const user = await runFirstSetup(await getDb(), body, request.headers);
    return json(user, { status: 201 });
  } catch (err) {
    return toProblem(err);
  }
}
