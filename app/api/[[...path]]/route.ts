// Any other /api path: a problem body, not an HTML page. Under a crew's base URL the token is
// checked first, so an unauthenticated caller cannot probe which paths exist.
import { authenticate } from "@/lib/auth/authenticate";
import { errors } from "@/lib/errors";
import { toProblem } from "@/lib/http/problem";

export const dynamic = "force-dynamic";

async function notFound(request: Request, { params }: { params: Promise<{ path?: string[] }> }) {
  try {
    const { path } = await params;
    if (path?.[0] === "crews") await authenticate(request);
    throw errors.notFound(
      `No API endpoint at ${new URL(request.url).pathname}. See /api/openapi.json.`,
    );
  } catch (err) {
    return toProblem(err);
  }
}

export {
  notFound as DELETE,
  notFound as GET,
  notFound as PATCH,
  notFound as POST,
  notFound as PUT,
};
