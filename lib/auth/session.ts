import "server-only";
import NextAuth, { CredentialsSignin, type NextAuthConfig } from "next-auth";
import type { Provider } from "next-auth/providers";
import Credentials from "next-auth/providers/credentials";
import { getDb } from "@/lib/db";
import { isRecord } from "@/lib/util/field";
import { authSecret } from "./auth-secret";
import type { Role } from "./roles";
import { safeRedirect } from "./safe-next";
import { checkSignIn, refusalCode, SignInRefused } from "./sign-in-check";
import { confirmSsoAccess, ssoSignIn } from "./sso-access";
import { ssoClaim } from "./sso-claim";
import { SSO_PROVIDER_ID, type SsoConfig, ssoConfig } from "./sso-config";
import { logAuthError, rememberAuthError } from "./sso-errors";
import { endSessions, findSessionUser, sessionVersionOf } from "./users";

declare module "next-auth" {
  interface User {
    role?: Role;
  }
  interface Session {
    /** The session version the cookie was issued with (see the jwt callback). */
    sv?: number;
    /** Signed in through single sign-on and the provider no longer confirms them. */
    ssoDenied?: boolean;
  }
}

type Callbacks = NonNullable<NextAuthConfig["callbacks"]>;

declare module "next-auth/jwt" {
  interface JWT {
    sv?: number;
    /** Single sign-on: the provider's subject and the access token its userinfo accepts. */
    sso?: { sub: string; at: string };
  }
}

// Every target next-auth redirects to (callbackUrl, redirectTo, the SSO round trip) passes the
// same check as the sign-in page's ?next=; the default lets "/<tab>/evil.test" through.
const redirect: Callbacks["redirect"] = ({ url, baseUrl }) => safeRedirect(url, baseUrl);

// Single sign-on: the provider vouched for the person; Crewdeck decides whether they get in and
// as what (their groups), creating them on first sign-in. A refusal is a redirect to the
// sign-in page with the reason.
const signInCallback: Callbacks["signIn"] = async ({ user, account, profile }) => {
  if (account?.provider !== SSO_PROVIDER_ID) return true;
  const config = ssoConfig();
  if (!config || !isRecord(profile)) return "/sign-in?error=sso-failed";
  const outcome = await ssoSignIn(await getDb(), config, {
    idClaims: profile,
    accessToken: account.access_token,
  });
  if ("refused" in outcome) return `/sign-in?error=${outcome.refused}`;
  user.id = outcome.id;
  return true;
};

// At sign-in the cookie records the person's session version; signing out, being disabled or
// removed, or a password reset moves it on and every older cookie stops working (currentUser).
// (Read here rather than in authorize: a reset landing between the two would let this one
// cookie survive it — a window of one query, against an attacker who already has the password.)
const jwt: Callbacks["jwt"] = async ({ token, user, account, profile }) => {
  if (user?.id) {
    token.sub = user.id;
    // Disabled or removed meanwhile: no version, so currentUser refuses the cookie.
    token.sv = await sessionVersionOf(await getDb(), user.id);
    delete token.sso;
    // The access token stays in the (encrypted) cookie, for the re-checks; never in the session.
    const sso = ssoClaim(account, profile);
    if (sso) token.sso = sso;
  }
  return token;
};

// Runs on each auth(): an SSO session is re-confirmed with the provider here (its token is at
// hand), so a person removed from the mapped group loses that access at their next request.
const sessionCallback: Callbacks["session"] = async ({ session, token }) => {
  if (token.sub) session.user.id = token.sub;
  if (typeof token.sv === "number") session.sv = token.sv;
  if (token.sso && token.sub) {
    const config = ssoConfig();
    const ok =
      !!config &&
      (await confirmSsoAccess(await getDb(), config, {
        userId: token.sub,
        subject: token.sso.sub,
        accessToken: token.sso.at,
      }));
    if (!ok) session.ssoDenied = true;
  }
  return session;
};

// Throttling, equal timing and the hash gate live in checkSignIn; its refusal reaches the page
// (and the redirect's ?code=) as CredentialsSignin's code.
const credentials = () =>
  Credentials({
    credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
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
  });

// Email + password, JWT sessions (no session table to clean). The role in the token is only a
// hint for the UI: every request re-reads the user (see sessionPrincipal), so a changed role or
// a removed user takes effect at once.
const { handlers, auth, signIn, signOut } = NextAuth(() => ({
  trustHost: true,
  secret: authSecret(),
  session: { strategy: "jwt", maxAge: 7 * 24 * 3600 },
  // A failed sign-in of any kind lands on the sign-in page, which says why (lib/auth/sso-errors.ts).
  pages: { signIn: "/sign-in", error: "/sign-in" },
  logger: {
    // checkSignIn already logged a refused sign-in as one line; next-auth's default would add a
    // stack trace per wrong password. A failed single sign-on callback is logged as one line by
    // withSsoErrors. Other errors are logged as before.
    error(error) {
      if (error instanceof CredentialsSignin) return;
      if (!rememberAuthError(error)) logAuthError(error);
    },
  },
  providers: [credentials(), ...ssoProviders()],
  callbacks: { redirect, signIn: signInCallback, jwt, session: sessionCallback },
  events: {
    // However the person signs out (the dashboard's button, or POST /api/auth/signout), the
    // cookie they leave behind, and any copy of it, is dead from now on.
    async signOut(message) {
      const id = "token" in message ? message.token?.sub : undefined;
      if (id) await endSessions(await getDb(), id);
    },
  },
}));

// auth() stays inside: the rest of the app reads the session through currentUser below.
export { handlers, signIn, signOut };

/** next-auth's generic OpenID Connect provider, when OIDC_* are set. */
function ssoProviders(): Provider[] {
  const config: SsoConfig | undefined = ssoConfig();
  if (!config) return [];
  return [
    {
      id: SSO_PROVIDER_ID,
      name: config.name,
      type: "oidc",
      issuer: config.issuer,
      clientId: config.clientId,
      clientSecret: config.clientSecret,
      // PKCE and state bind the callback to this browser and this attempt; the nonce binds the ID
      // token to it. Each is single-use (its cookie is cleared) and lasts 15 minutes.
      checks: ["pkce", "state", "nonce"],
      authorization: { params: { scope: config.scopes } },
    },
  ];
}

export type SessionUser = { id: string; email: string; name: string | null; role: Role };

/**
 * The signed-in user, read fresh from the database; undefined when signed out, when the cookie is
 * older than the person's last sign-out or password reset, or when they are disabled or removed.
 */
export async function currentUser(): Promise<SessionUser | undefined> {
  const session = await auth();
  const id = session?.user?.id;
  // A cookie without a version predates session versions: it cannot be checked, so it is not good.
  if (!id || typeof session.sv !== "number" || session.ssoDenied) return undefined;
  return findSessionUser(await getDb(), id, session.sv);
}
