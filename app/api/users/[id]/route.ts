// /api/users/{id} — administrators only.
//   PATCH  { role?, disabled?, password? }: change the role, disable or re-enable, reset the password
//   DELETE: remove the person (see removeUser for what stays behind)
import type { z } from "zod";
import { forgetCachedTokens } from "@/lib/auth/authenticate";
import type { Principal } from "@/lib/auth/principal";
import { changeUser, removeUser, UserChangeSchema } from "@/lib/auth/users";
import { getDb } from "@/lib/db";
import { AppError, errors, zodFieldErrors } from "@/lib/http/problem";
import { readJsonBody, requireObject } from "@/lib/http/read-json";
import { json } from "@/lib/http/respond";
import { apiRoute } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

export const PATCH = apiRoute<{ id: string }>(
  async ({ request, params, principal }) => {
    const parsed = UserChangeSchema.safeParse(requireObject(await readJsonBody(request, 4 * 1024)));
    if (!parsed.success) throw invalid(parsed.error);
    // Administrators may change themselves too; changeUser refuses whatever would leave nobody
    // able to manage access (the last active administrator demoted or disabled).
    const user = await changeUser(
      await getDb(),
      { id: params.id, actor: adminId(principal) },
      parsed.data,
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
// well-formed one that says nothing, or a value out of range, is unprocessable (422).
function invalid(error: z.ZodError) {
  const fields = zodFieldErrors(error);
  const malformed = error.issues.some(
    (i) => i.code === "invalid_type" || i.code === "unrecognized_keys",
  );
  return malformed
    ? errors.badRequest("Invalid change to a user.", fields)
    : errors.unprocessable("Invalid change to a user.", { errors: fields });
}
