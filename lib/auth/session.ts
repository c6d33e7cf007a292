import "server-only";
import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { z } from "zod";
import { getDb } from "@/lib/db";
import { authSecret } from "./auth-secret";
import { verifyPassword } from "./passwords";
import type { Role } from "./roles";
import { endSessions, findSessionUser, findUserForSignIn, sessionVersionOf } from "./users";

declare module "next-auth" {
  interface User {
    role?: Role;
  }
  interface Session {
    /** The session version the cookie was issued with (see the jwt callback). */
    sv?: number;
  }
}

const SignIn = z.object({ email: z.email(), password: z.string().min(1).max(500) });

// Email + password, JWT sessions (no session table to clean). The role in the token is only a
// hint for the UI: every request re-reads the user (see sessionPrincipal), so a changed role or
// a removed user takes effect at once.
export const { handlers, auth, signIn, signOut } = NextAuth(() => ({
  trustHost: true,
  secret: authSecret(),
  session: { strategy: "jwt", maxAge: 7 * 24 * 3600 },
  pages: { signIn: "/sign-in" },
  providers: [
    Credentials({
      credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
      async authorize(raw) {
        const parsed = SignIn.safeParse(raw);
        if (!parsed.success) throw new CredentialsSignin();
        const user = await findUserForSignIn(await getDb(), parsed.data.email);
        // Same work whether or not the user exists, so timing does not tell which emails are known.
        const ok = await verifyPassword(parsed.data.password, user?.password_hash ?? DUMMY_HASH);
        if (!user?.password_hash || !ok) throw new CredentialsSignin();
        return { id: user.id, email: user.email, name: user.name ?? user.email, role: user.role };
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

const DUMMY_HASH =
  "scrypt$32768$8$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

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
