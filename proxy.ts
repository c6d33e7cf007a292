import { type NextRequest, NextResponse } from "next/server";
import { getToken } from "next-auth/jwt";
import { authSecret, SESSION_COOKIES } from "@/lib/auth/auth-secret";
import { sameOriginAction } from "@/lib/auth/same-origin";
import { env } from "@/lib/config/env";
import { AppError } from "@/lib/errors";
import { toProblem } from "@/lib/http/problem";

// Pages anyone may open: sign-in, first-run setup, the public API reference.
// The A2A host card is public by design (it names no crew): A2A clients discover it unsigned.
const PUBLIC_PAGE =
  /^\/(sign-in|setup|docs\/|favicon\.ico$|robots\.txt$|\.well-known\/agent-card\.json$)/;

/**
 * Runs before Next routes anything (see config.matcher for which paths). A malformed
 * percent-encoding is a 400 (Next would fail decoding it with a 500). For pages: X-Forwarded-Host/-Proto are dropped unless
 * TRUST_PROXY says a proxy sets them (next-auth builds its redirects from them); a POST — a server
 * action — must come from our own origin; a request without a valid session cookie is redirected
 * to sign-in before anything renders. Pages still check the person themselves (requireUser), since
 * only the database knows whether a valid cookie was signed out, or its owner removed or demoted.
 */
export async function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  if (!decodes(pathname)) {
    return toProblem(new AppError("bad-request", 400, "The path has a malformed %-encoding."));
  }
  if (pathname.startsWith("/api/")) return NextResponse.next();

  const trustProxy = env().TRUST_PROXY;
  if (request.method === "POST" && !sameOriginAction(request.headers, trustProxy)) {
    return toProblem(
      new AppError("forbidden", 403, "Cross-site request refused: use the dashboard's own forms."),
    );
  }
  const headers = new Headers(request.headers);
  if (!trustProxy) {
    headers.delete("x-forwarded-host");
    headers.delete("x-forwarded-proto");
  }
  const pass = () => NextResponse.next({ request: { headers } });
  if (PUBLIC_PAGE.test(pathname)) return pass();

  for (const cookieName of SESSION_COOKIES) {
    if (!request.cookies.getAll().some((c) => c.name.startsWith(cookieName))) continue;
    const token = await getToken({
      req: request,
      secret: authSecret(),
      cookieName,
      salt: cookieName,
    }).catch(() => null);
    if (token?.sub) return pass();
  }
  const url = request.nextUrl.clone();
  const next = `${url.pathname}${url.search}`;
  url.pathname = "/sign-in";
  url.search = next === "/" ? "" : `?next=${encodeURIComponent(next)}`;
  return NextResponse.redirect(url);
}

function decodes(pathname: string) {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

// Every page, and the API paths whose %-encoding may not decode: a lone `%` or an encoded
// non-ASCII byte. Not the rest of the API: Next buffers a request's whole body (up to 10 MB) before
// proxy runs, which would undo the API's own streaming body limits.
export const config = {
  matcher: ["/((?!_next/|api/).*)", "/api/(.*%(?:[89a-fA-F][0-9a-fA-F]|(?![0-9a-fA-F]{2})).*)"],
};
