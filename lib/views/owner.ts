import type { Principal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";

/** Views belong to a person: the dashboard's session or a personal (user) token, never the org. */
export function viewOwnerOf(principal: Principal): string {
  if (principal.kind === "org")
    throw new AppError(
      "forbidden",
      403,
      "Saved views belong to a person: use the dashboard or a personal (user) token.",
    );
  return principal.userId;
}
