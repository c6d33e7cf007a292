// Any other /api path: a problem body, not an HTML page. Under a crew's base URL the token is
// checked first, so an unauthenticated caller cannot probe which paths exist.

import { refusingRoute } from "@/lib/api/route";
import { authenticate } from "@/lib/auth/authenticate";
import { errors } from "@/lib/errors";

export const dynamic = "force-dynamic";

const notFound = refusingRoute(
  {
    caller: async (request, { path }) =>
      Array.isArray(path) && path[0] === "crews" ? authenticate(request) : null,
    rateKey: () => null,
  },
  async ({ request }) => {
    throw errors.notFound(
      `No API endpoint at ${new URL(request.url).pathname}. See /api/openapi.json.`,
    );
  },
);

export {
  notFound as DELETE,
  notFound as GET,
  notFound as PATCH,
  notFound as POST,
  notFound as PUT,
};
