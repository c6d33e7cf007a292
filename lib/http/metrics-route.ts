import "server-only";
import { authenticate } from "@/lib/auth/authenticate";
import { can } from "@/lib/auth/roles";
import { AppError } from "@/lib/errors";
import { checkRateLimit } from "./rate-limit";
import { route } from "./routes";

/**
 * A scrape endpoint: callers from an allowed network need no token (Prometheus inside the
 * cluster); anyone else needs an organization token or an administrator (`manage`), as apiRoute.
 */
export function metricsRoute(
  fromAllowedNetwork: (request: Request) => boolean,
  handler: () => Promise<Response>,
) {
  return route(
    {
      caller: async (request) => {
        if (fromAllowedNetwork(request)) return null;
        const principal = await authenticate(request);
        checkRateLimit(principal);
        if (!can(principal, "manage"))
          throw new AppError(
            "forbidden",
            403,
            "This needs an organization token or an administrator.",
          );
        return principal;
      },
      rateKey: () => null,
    },
    handler,
  );
}
