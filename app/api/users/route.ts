// /api/users — people and their roles (administrators only).

import * as adminApi from "@/lib/api/endpoints/admin";
import { apiRoute } from "@/lib/api/route";
import { createUser, listUsers } from "@/lib/auth/users";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = apiRoute(adminApi.listUsers, async () =>
  json({ users: await listUsers(await getDb()) }),
);

export const POST = apiRoute(adminApi.addUser, async ({ body }) =>
  json(await createUser(await getDb(), body), { status: 201 }),
);
