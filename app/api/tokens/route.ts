// /api/tokens — API tokens for the dashboard's settings. Administrators see and create every
// kind; everyone else (operator and up) sees and creates only user tokens of their own.

import { createToken, listTokens } from "@/lib/auth/manage-tokens";
import { roleAllows } from "@/lib/auth/roles";
import { TokenRequestSchema } from "@/lib/contract/admin";
import { getDb } from "@/lib/db";
import { AppError, errors, zodFieldErrors } from "@/lib/errors";
import { readJsonBody, requireObject } from "@/lib/http/read-json";
import { json } from "@/lib/http/respond";
import { apiRoute } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

export const GET = apiRoute(async ({ principal }) => {
  if (principal.kind !== "session")
    throw new AppError("forbidden", 403, "Manage tokens from the dashboard or `npm run token`.");
  const own = principal.role === "admin" ? undefined : principal.userId;
  return json({ tokens: await listTokens({ db: await getDb(), userId: own }) });
});

export const POST = apiRoute(async ({ request, principal }) => {
  if (principal.kind !== "session")
    throw new AppError("forbidden", 403, "Manage tokens from the dashboard or `npm run token`.");
  const parsed = TokenRequestSchema.safeParse(
    requireObject(await readJsonBody(request, 16 * 1024)),
  );
  if (!parsed.success)
    throw errors.unprocessable("Invalid token request.", { errors: zodFieldErrors(parsed.error) });
  if (parsed.data.kind === "org" && principal.role !== "admin") {
    throw new AppError("forbidden", 403, "Only administrators create organization tokens.");
  }
  // A personal token starts and stops runs: viewers, who may not, get none.
  if (parsed.data.kind === "user" && !roleAllows(principal.role, "start")) {
    throw new AppError(
      "forbidden",
      403,
      "Your role (viewer) cannot start runs, so it gets no API token.",
    );
  }
  const input =
    parsed.data.kind === "org"
      ? { kind: "org" as const, label: parsed.data.label }
      : { kind: "user" as const, email: principal.email, label: parsed.data.label };
  return json(await createToken({ db: await getDb(), input }), { status: 201 });
});
