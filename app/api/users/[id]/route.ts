// PATCH /api/users/{id} — change a person's role (administrators only; not their own).
import { z } from "zod";
import { ROLES } from "@/lib/auth/roles";
import { setRole } from "@/lib/auth/users";
import { getDb } from "@/lib/db";
import { AppError, errors, zodFieldErrors } from "@/lib/http/problem";
import { readJsonBody, requireObject } from "@/lib/http/read-json";
import { json } from "@/lib/http/respond";
import { apiRoute } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

const Patch = z.object({ role: z.enum(ROLES) });

export const PATCH = apiRoute<{ id: string }>(
  async ({ request, principal, params }) => {
    const parsed = Patch.safeParse(requireObject(await readJsonBody(request, 4 * 1024)));
    if (!parsed.success)
      throw errors.unprocessable("Invalid role.", { errors: zodFieldErrors(parsed.error) });
    // An administrator demoting themselves could leave nobody able to manage access.
    if (principal.kind === "session" && principal.userId === params.id) {
      throw new AppError(
        "forbidden",
        403,
        "You cannot change your own role; ask another administrator.",
      );
    }
    if (!z.uuid().safeParse(params.id).success) throw errors.notFound(`No user '${params.id}'.`);
    await setRole(await getDb(), { id: params.id, role: parsed.data.role });
    return json({ id: params.id, role: parsed.data.role });
  },
  { action: "admin" },
);
