// /api/users/{id}/unlock — administrators only.
//   POST: clears the person's sign-in locks (every account-and-address lock and the account's
//         slow-down). Locks live in each web instance's memory: this clears the instance that
//         answers; with several behind a balancer, the others' locks run out on their own.
import * as adminApi from "@/lib/api/endpoints/admin";
import { apiRoute } from "@/lib/api/route";
import { unlockAccount } from "@/lib/auth/sign-in-throttle";
import { getUser } from "@/lib/auth/users";
import { getDb } from "@/lib/db";
import { AppError, errors } from "@/lib/errors";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const POST = apiRoute(adminApi.unlockUser, async ({ params, principal }) => {
  // Only a person signed in as an administrator (action "admin": no token may).
  if (principal.kind !== "session")
    throw new AppError("forbidden", 403, "Sign in as an administrator.");
  const user = await getUser(await getDb(), params.id);
  if (!user) throw errors.notFound(`No user '${params.id}'.`);
  const lockedPairs = unlockAccount(user.email);
  // No audit table for people changes: the server log is the record.
  console.log(
    `[auth] sign-in locks of ${JSON.stringify(user.email)} cleared by ${principal.email} (${lockedPairs} locked)`,
  );
  return json({ email: user.email, locked_pairs: lockedPairs });
});
