// /api/tokens — API tokens for the dashboard's settings. Administrators see and create every
// kind; everyone else (operator and up) sees and creates only user tokens of their own.

import * as adminApi from "@/lib/api/endpoints/admin";
import { apiRoute } from "@/lib/api/route";
import { createToken, listTokens } from "@/lib/auth/manage-tokens";
import { roleAllows } from "@/lib/auth/roles";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = apiRoute(adminApi.listTokens, async ({ principal }) => {
  const own = principal.role === "admin" ? undefined : principal.userId;
  return json({ tokens: await listTokens({ db: await getDb(), userId: own }) });
});

export const POST = apiRoute(adminApi.createToken, async ({ body, principal }) => {
  if (body.kind === "org" && principal.role !== "admin") {
    throw new AppError("forbidden", 403, "Only administrators create organization tokens.");
  }
  // A personal token starts and stops runs: viewers, who may not, get none.
  if (body.kind === "user" && !roleAllows(principal.role, "start")) {
    throw new AppError(
      "forbidden",
      403,
      "Your role (viewer) cannot start runs, so it gets no API token.",
    );
  }
  const input =
    body.kind === "org"
      ? { kind: "org" as const, label: body.label }
      : { kind: "user" as const, email: principal.email, label: body.label };
  return json(await createToken({ db: await getDb(), input }), { status: 201 });
});
