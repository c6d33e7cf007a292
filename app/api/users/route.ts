// /api/users — people and their roles (administrators only).
import { createUser, listUsers, NewUserSchema } from "@/lib/auth/users";
import { getDb } from "@/lib/db";
import { errors, zodFieldErrors } from "@/lib/errors";
import { readJsonBody, requireObject } from "@/lib/http/read-json";
import { json } from "@/lib/http/respond";
import { apiRoute } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

export const GET = apiRoute(async () => json({ users: await listUsers(await getDb()) }), {
  action: "admin",
});

export const POST = apiRoute(
  async ({ request }) => {
    const parsed = NewUserSchema.safeParse(requireObject(await readJsonBody(request, 16 * 1024)));
    if (!parsed.success)
      throw errors.unprocessable("Invalid user.", { errors: zodFieldErrors(parsed.error) });
    return json(await createUser(await getDb(), parsed.data), { status: 201 });
  },
  { action: "admin" },
);
