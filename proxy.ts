import { type NextRequest, NextResponse } from "next/server";
import { getToken } from "next-auth/jwt";
import { authSecret, SESSION_COOKIES } from "@/lib/auth/auth-secret";

/**
 * The dashboard's outer gate: a page request without a valid session cookie is redirected to
 * sign-in before anything renders. Pages still check the person themselves (requireUser), since
 * only the database knows whether a valid cookie was signed out, or its owner removed or demoted.
 */
export async function proxy(request: NextRequest) {
  for (const cookieName of SESSION_COOKIES) {
    if (!request.cookies.getAll().some((c) => c.name.startsWith(cookieName))) continue;
    const token = await getToken({
      req: request,
      secret: authSecret(),
      cookieName,
      salt: cookieName,
    }).catch(() => null);
    if (token?.sub) return NextResponse.next();
  }
  const url = request.nextUrl.clone();
  const next = `${url.pathname}${url.search}`;
  url.pathname = "/sign-in";
  url.search = next === "/" ? "" : `?next=${encodeURIComponent(next)}`;
  return NextResponse.redirect(url);
}

// Everything but the API (which authenticates each call itself), Next's assets, the sign-in and
// first-run pages, and the public API reference.
export const config = {
  matcher: ["/((?!api/|_next/|sign-in|setup|docs/|favicon\\.ico|robots\\.txt).*)"],
};
