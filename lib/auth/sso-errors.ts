import { AsyncLocalStorage } from "node:async_hooks";
import { fieldOf } from "@/lib/util/field";

// A failed single sign-on lands on the sign-in page with one of these codes (?error=sso-…) and a
// sentence saying what happened — never next-auth's generic "Configuration", never a stack trace.

const MESSAGES = {
  "sso-state":
    "That sign-in link has expired or was already used. Start again with the button below.",
  "sso-audience":
    "The identity provider's answer was meant for another application (wrong audience): sign-in refused.",
  "sso-denied": "The identity provider did not sign you in (access denied or cancelled).",
  "sso-unavailable": "The identity provider could not be reached or did not confirm who you are.",
  "sso-no-email": "The identity provider sent no email address for your account.",
  "sso-unverified-email": "The identity provider says your email address is not verified.",
  "sso-disabled": "Your Crewdeck account is disabled. Ask an administrator.",
  "sso-no-role": "Your account is in no group that gives access to Crewdeck. Ask an administrator.",
  "sso-recovery-account":
    "This email is Crewdeck's recovery administrator (ADMIN_EMAIL): sign in with its password.",
  "sso-failed": "Single sign-on failed. The server log says why.",
} as const;
export type SsoErrorCode = keyof typeof MESSAGES;

export const isSsoErrorCode = (v: unknown): v is SsoErrorCode =>
  typeof v === "string" && Object.hasOwn(MESSAGES, v);

export const ssoErrorMessage = (code: SsoErrorCode) => MESSAGES[code];

/** Reads what went wrong in a failed callback from the error next-auth logged (and its causes). */
export function classifySsoError(error: unknown): SsoErrorCode {
  const seen: string[] = [];
  let e: unknown = error;
  for (let depth = 0; e && depth < 6; depth++) {
    if (e instanceof Error) {
      seen.push(`${e.name} ${fieldOf(e, "type") ?? ""} ${e.message}`);
      e = e.cause;
    } else if (typeof e === "object") {
      seen.push(JSON.stringify(e));
      e = fieldOf(e, "err");
    } else break;
  }
  const all = seen.join("\n");
  if (/"(aud|azp)"/.test(all)) return "sso-audience";
  if (/InvalidCheck|"state"|pkceCodeVerifier|nonce/.test(all)) return "sso-state";
  if (/OAuthCallbackError/.test(all)) return "sso-denied";
  return "sso-failed";
}

const lastError = new AsyncLocalStorage<{ error?: unknown }>();

/** next-auth's logger.error: remembers the error for withSsoErrors; true when it did. */
export function rememberAuthError(error: unknown) {
  const store = lastError.getStore();
  if (store) store.error = error;
  return !!store;
}

/**
 * Wraps next-auth's GET handler: a failed OpenID Connect callback, which next-auth sends to the
 * sign-in page as ?error=Configuration (or a name meant for developers), gets a code the page
 * explains instead.
 */
export function withSsoErrors<R extends Request>(get: (req: R) => Promise<Response>) {
  return async (req: R) => {
    const store: { error?: unknown } = {};
    const res = await lastError.run(store, () => get(req));
    const location = res.headers.get("location");
    const to = location ? new URL(location, req.url) : undefined;
    const error = to?.searchParams.get("error");
    const ssoCallback = new URL(req.url).pathname.endsWith("/callback/oidc");
    if (!to || !error || !ssoCallback || isSsoErrorCode(error) || to.pathname !== "/sign-in") {
      // Not a failed SSO callback: whatever next-auth logged is logged as it would have been.
      if (store.error) logAuthError(store.error);
      return res;
    }
    const code = classifySsoError(store.error);
    console.warn(`[auth] single sign-on callback refused (${code}): ${explain(store.error)}`);
    to.searchParams.set("error", code);
    to.searchParams.delete("code");
    const headers = new Headers(res.headers);
    headers.set("location", to.toString());
    return new Response(null, { status: res.status, headers });
  };
}

/** next-auth's error, as one line and its cause (the logger's format outside SSO callbacks). */
export function logAuthError(error: unknown) {
  if (!(error instanceof Error)) return void console.error("[auth][error]", error);
  console.error(`[auth][error] ${error.name}: ${error.message}`, error.cause ?? error.stack);
}

function explain(error: unknown) {
  const parts: string[] = [];
  let e: unknown = error;
  for (let depth = 0; e instanceof Error && depth < 6; depth++) {
    parts.push(e.message);
    e = e.cause;
  }
  return parts.join(" ← ") || "unknown";
}
