// DELETE /api/tokens/{id} — revoke a token (administrators: any; others: their own).
import { revokeTokenById } from "@/lib/auth/manage-tokens";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { apiRoute } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

export const DELETE = apiRoute<{ id: string }>(
  async ({ principal, params }) => {
    if (principal.kind !== "session")
      throw new AppError("forbidden", 403, "Revoke tokens from the dashboard or `npm run token`.");
    await revokeTokenById({
      db: await getDb(),
      id: params.id,
      userId: principal.role === "admin" ? undefined : principal.userId,
    });
    return new Response(null, { status: 204 });
  },
  { action: "self" },
);
