import "server-only";
import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { getDb } from "@/lib/db";
import { authSecret } from "./auth-secret";
import type { Role } from "./roles";
import { checkSignIn, refusalCode, SignInRefused } from "./sign-in-check";
import { endSessions, findSessionUser, sessionVersionOf } from "./users";

declare module "next-auth" {
  interface User {
    role?: Role;
  }
  interface Session {
    /** The session version the cookie was issued with (see the jwt callback). */
    sv?: number;
  }
}

// Email + password, JWT sessions (no session table to clean). The role in the token is only a
// hint for the UI: every request re-reads the user (see sessionPrincipal), so a changed role or
// a removed user takes effect at once.
export const { handlers, auth, signIn, signOut } = NextAuth(() => ({
  trustHost: true,
  secret: authSecret(),
  session: { strategy: "jwt", maxAge: 7 * 24 * 3600 },
  pages: { signIn: "/sign-in" },
  logger: {
    // checkSignIn already logged a refused sign-in as one line; next-auth's default would add a
    // stack trace per wrong password. Other errors are logged as before.
    error(error) {
      if (error instanceof CredentialsSignin) return;
      console.error(`[auth][error] ${error.name}: ${error.message}`, error.cause ?? error.stack);
    },
  },
  providers: [
    Credentials({
      credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
      // Throttling, equal timing and the hash gate live in checkSignIn; its refusal reaches the
      // page (and the redirect's ?code=) as CredentialsSignin's code.
      async authorize(raw, request) {
        try {
          return await checkSignIn(await getDb(), raw, request.headers);
        } catch (err) {
          if (!(err instanceof SignInRefused)) throw err;
          const refused = new CredentialsSignin(err.message);
          refused.code = refusalCode(err);
          throw refused;
        }
      },
    }),
  ],
  callbacks: {
    // At sign-in the cookie records the person's session version; signing out, being disabled or
    // removed, or a password reset moves it on and every older cookie stops working (currentUser).
    // (Read here rather than in authorize: a reset landing between the two would let this one
    // cookie survive it — a window of one query, against an attacker who already has the password.)
    async jwt({ token, user }) {
      if (user?.id) {
        token.sub = user.id;
        // Disabled or removed meanwhile: no version, so currentUser refuses the cookie.
        token.sv = await sessionVersionOf(await getDb(), user.id);
      }
      return token;
    },
    session({ session, token }) {
      if (token.sub) session.user.id = token.sub;
      if (typeof token.sv === "number") session.sv = token.sv;
      return session;
    },
  },
  events: {
    // However the person signs out (the dashboard's button, or POST /api/auth/signout), the
    // cookie they leave behind, and any copy of it, is dead from now on.
    async signOut(message) {
      const id = "token" in message ? message.token?.sub : undefined;
      if (id) await endSessions(await getDb(), id);
    },
  },
}));

export type SessionUser = { id: string; email: string; name: string | null; role: Role };

/**
 * The signed-in user, read fresh from the database; undefined when signed out, when the cookie is
 * older than the person's last sign-out or password reset, or when they are disabled or removed.
 */
export async function currentUser(): Promise<SessionUser | undefined> {
  const session = await auth();
  const id = session?.user?.id;
  // A cookie without a version predates session versions: it cannot be checked, so it is not good.
  if (!id || typeof session.sv !== "number") return undefined;
  return findSessionUser(await getDb(), id, session.sv);
}
