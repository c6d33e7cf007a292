import "server-only";
import { authenticate } from "@/lib/auth/authenticate";
import type { Principal } from "@/lib/auth/principal";
import { can } from "@/lib/auth/roles";
import { AppError } from "@/lib/errors";
import { checkRateLimit } from "./rate-limit";

/**
 * Who may scrape: callers from an allowed network need no token (Prometheus inside the cluster,
 * answered as `null`); anyone else needs an organization token or an administrator (`manage`).
 */
export function scrapeCaller(fromAllowedNetwork: (request: Request) => boolean) {
  return async (request: Request): Promise<Principal | null> => {
    if (fromAllowedNetwork(request)) return null;
    const principal = await authenticate(request);
    checkRateLimit(principal);
    if (!can(principal, "manage"))
      throw new AppError("forbidden", 403, "This needs an organization token or an administrator.");
    return principal;
  };
}
