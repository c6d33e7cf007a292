// /api/users — people and their roles (administrators only).
import { createUser, listUsers, NewUserSchema } from "@/lib/auth/users";
import { UserRowSchema, UsersListSchema } from "@/lib/contract/admin";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { apiRoute } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

export const GET = apiRoute(async () => json({ users: await listUsers(await getDb()) }), {
  action: "admin",
  response: UsersListSchema,
});

export const POST = apiRoute(
  async ({ body }) => json(await createUser(await getDb(), body), { status: 201 }),
  {
    action: "admin",
    body: NewUserSchema,
    bodyLimit: 16 * 1024,
    invalid: 422,
    response: UserRowSchema,
  },
);
