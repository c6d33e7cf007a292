// /api/users/{id} — administrators only.
//   PATCH  { role?, teams?, disabled?, password? }: change the role or teams, disable or re-enable,
//          reset the password
//   DELETE: remove the person (see removeUser for what stays behind)

import * as adminApi from "@/lib/api/endpoints/admin";
import { apiRoute } from "@/lib/api/route";
import { forgetCachedTokens } from "@/lib/auth/authenticate";
import type { Principal } from "@/lib/auth/principal";
import { changeUser, removeUser } from "@/lib/auth/user-changes";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const PATCH = apiRoute(adminApi.changeUser, async ({ body: change, params, principal }) => {
  // Administrators may change themselves too; changeUser refuses whatever would leave nobody
  // able to manage access (the last active administrator demoted or disabled).
  const user = await changeUser(
    await getDb(),
    { id: params.id, actor: adminId(principal) },
    change,
  );
  forgetCachedTokens(); // this process at once; the others on the NOTIFY
  return json(user);
});

export const DELETE = apiRoute(adminApi.removeUser, async ({ params, principal }) => {
  await removeUser(await getDb(), { id: params.id, actor: adminId(principal) });
  forgetCachedTokens();
  return new Response(null, { status: 204 });
});

// Only a person signed in as an administrator gets here (action "admin": no token may).
function adminId(principal: Principal) {
  if (principal.kind !== "session")
    throw new AppError("forbidden", 403, "Sign in as an administrator.");
  return principal.userId;
}
