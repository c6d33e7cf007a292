import "server-only";
import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { z } from "zod";
import { getDb } from "@/lib/db";
import { authSecret } from "./auth-secret";
import { verifyPassword } from "./passwords";
import type { Role } from "./roles";
import { findUserForSignIn, getUser } from "./users";

declare module "next-auth" {
  interface User {
    role?: Role;
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
    jwt({ token, user }) {
      if (user?.id) token.sub = user.id;
      return token;
    },
    session({ session, token }) {
      if (token.sub) session.user.id = token.sub;
      return session;
    },
  },
}));

const DUMMY_HASH =
  "scrypt$32768$8$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

export type SessionUser = { id: string; email: string; name: string | null; role: Role };

/** The signed-in user, read fresh from the database; undefined when signed out or removed. */
export async function currentUser(): Promise<SessionUser | undefined> {
  const id = (await auth())?.user?.id;
  if (!id) return undefined;
  const user = await getUser(await getDb(), id);
  return user && { id: user.id, email: user.email, name: user.name, role: user.role };
}
