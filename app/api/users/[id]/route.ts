// /api/users/{id} — administrators only.
//   PATCH  { role?, teams?, disabled?, password? }: change the role or teams, disable or re-enable,
//          reset the password
//   DELETE: remove the person (see removeUser for what stays behind)
import { forgetCachedTokens } from "@/lib/auth/authenticate";
import type { Principal } from "@/lib/auth/principal";
import { changeUser, removeUser } from "@/lib/auth/user-changes";
import { type UserChange, UserChangeSchema } from "@/lib/auth/users";
import { UserRowSchema } from "@/lib/contract/admin";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { json } from "@/lib/http/respond";
import { apiRoute } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

export const PATCH = apiRoute<{ id: string }, UserChange>(
  async ({ body: change, params, principal }) => {
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
  // A field of the wrong type, or one that does not exist, is a malformed request (400); a
  // well-formed change that says nothing, or holds a value out of range, is unprocessable (422).
  {
    action: "admin",
    body: UserChangeSchema,
    bodyLimit: 4 * 1024,
    invalid: 422,
    response: UserRowSchema,
  },
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
