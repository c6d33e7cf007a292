import "server-only";
import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { env } from "@/lib/config/env";
import { dataDirSecret } from "@/lib/config/secrets";
import { getDb } from "@/lib/db";
import type { Role } from "./roles";
import { checkSignIn, refusalCode, SignInRefused } from "./sign-in-check";
import { getUser } from "./users";

declare module "next-auth" {
  interface User {
    role?: Role;
  }
}

// Email + password, JWT sessions (no session table to clean). The role in the token is only a
// hint for the UI: every request re-reads the user (see sessionPrincipal), so a changed role or
// a removed user takes effect at once.
export const { handlers, auth, signIn, signOut } = NextAuth(() => ({
  trustHost: true,
  secret: env().AUTH_SECRET ?? dataDirSecret("auth-secret"),
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

export type SessionUser = { id: string; email: string; name: string | null; role: Role };

/** The signed-in user, read fresh from the database; undefined when signed out or removed. */
export async function currentUser(): Promise<SessionUser | undefined> {
  const id = (await auth())?.user?.id;
  if (!id) return undefined;
  const user = await getUser(await getDb(), id);
  return user && { id: user.id, email: user.email, name: user.name, role: user.role };
}
