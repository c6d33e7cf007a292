// /api/tokens — API tokens for the dashboard's settings. Administrators see and create every
// kind; everyone else (operator and up) sees and creates only user tokens of their own.

import { createToken, listTokens } from "@/lib/auth/manage-tokens";
import { roleAllows } from "@/lib/auth/roles";
import { CreatedTokenSchema, TokenRequestSchema, TokensListSchema } from "@/lib/contract/admin";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { json } from "@/lib/http/respond";
import { apiRoute } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

// Tokens are managed by a person signed in; a token is refused before its body is read.
const sessionOnly = "Manage tokens from the dashboard or `npm run token`.";

export const GET = apiRoute(
  async ({ principal }) => {
    if (principal.kind !== "session") throw new AppError("forbidden", 403, sessionOnly);
    const own = principal.role === "admin" ? undefined : principal.userId;
    return json({ tokens: await listTokens({ db: await getDb(), userId: own }) });
  },
  { response: TokensListSchema },
);

export const POST = apiRoute(
  async ({ body, principal }) => {
    if (principal.kind !== "session") throw new AppError("forbidden", 403, sessionOnly);
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
  },
  {
    action: "self",
    body: TokenRequestSchema,
    bodyLimit: 16 * 1024,
    invalid: 422,
    sessionOnly,
    response: CreatedTokenSchema,
  },
);
