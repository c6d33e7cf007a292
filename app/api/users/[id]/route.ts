// /api/users/{id} — administrators only.
//   PATCH  { role?, teams?, disabled?, password? }: change the role or teams, disable or re-enable,
//          reset the password
//   DELETE: remove the person (see removeUser for what stays behind)
import { z } from "zod";
import { forgetCachedTokens } from "@/lib/auth/authenticate";
import type { Principal } from "@/lib/auth/principal";
import { changeUser, removeUser } from "@/lib/auth/user-changes";
import { UserChangeSchema } from "@/lib/auth/users";
import { getDb } from "@/lib/db";
import { AppError, errors, zodFieldErrors } from "@/lib/errors";
import { readJsonBody, requireObject } from "@/lib/http/read-json";
import { json } from "@/lib/http/respond";
import { apiRoute } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

export const PATCH = apiRoute<{ id: string }>(
  async ({ request, params, principal }) => {
    const change = parseChange(requireObject(await readJsonBody(request, 4 * 1024)));
    // Administrators may change themselves too; changeUser refuses whatever would leave nobody
    // able to manage access (the last active administrator demoted or disabled).
    const user = await changeUser(
      await getDb(),
      { id: params.id, actor: adminId(principal) },
      change,
    );
    forgetCachedTokens(); // this process at once; the others on the NOTIFY
    return json(user);
  },
  { action: "admin" },
);

export const DELETE = apiRoute<{ id: string }>(
  async ({ params, principal }) => {
    await removeUser(await getDb(), { id: params.id, actor: adminId(principal) });
    forgetCachedTokens();
    return new Response(null, { status: 204 });
  },
  { action: "admin" },
);

// Only a person signed in as an administrator gets here (action "admin": no token may).
function adminId(principal: Principal) {
  if (principal.kind !== "session")
    throw new AppError("forbidden", 403, "Sign in as an administrator.");
  return principal.userId;
}

// A field of the wrong type, or one that does not exist, is a malformed request (400); a
// well-formed one that says nothing, or holds a value out of range, is unprocessable (422).
const Shape = z.strictObject({
  role: z.string().optional(),
  teams: z.array(z.string()).optional(),
  disabled: z.boolean().optional(),
  password: z.string().optional(),
});

function parseChange(body: unknown) {
  const shape = Shape.safeParse(body);
  if (!shape.success)
    throw errors.badRequest("Invalid change to a user.", zodFieldErrors(shape.error));
  const parsed = UserChangeSchema.safeParse(shape.data);
  if (!parsed.success)
    throw errors.unprocessable("Invalid change to a user.", {
      errors: zodFieldErrors(parsed.error),
    });
  return parsed.data;
}
