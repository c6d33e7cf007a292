import { setTimeout as sleep } from "node:timers/promises";
import ipaddr from "ipaddr.js";
import { z } from "zod";
import { env } from "@/lib/config/env";
import type { Db } from "@/lib/db/types";
import { clientAddress } from "./client-address";
import { dummyHash, verifyPassword } from "./passwords";
import type { Role } from "./roles";
import { Busy, hashGate } from "./sign-in-gate";
import { accountKey, pairKey, throttles } from "./sign-in-throttle";
import { passwordSignInAllowed } from "./sso-config";
import { findUserForSignIn } from "./users";

const SignIn = z.object({ email: z.email(), password: z.string().min(1).max(500) });

/** Why a sign-in was refused; `retryAfterS` for throttled and busy. */
export class SignInRefused extends Error {
  constructor(
    readonly reason: "invalid" | "throttled" | "busy" | "password-off",
    readonly retryAfterS = 0,
  ) {
    super(
      reason === "invalid"
        ? "Wrong email or password."
        : reason === "password-off"
          ? PASSWORD_OFF
          : `Too many attempts; retry after ${retryAfterS} s.`,
    );
    this.name = "SignInRefused";
  }
}

const PASSWORD_OFF = "Password sign-in is turned off: use single sign-on.";

export type SignedInUser = { id: string; email: string; name: string; role: Role };

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * Checks an email and password for next-auth's authorize (the sign-in page's server action and
 * POST /api/auth/callback/credentials both end here). Locked per account-and-address pair and per
 * client address, slowed down per account (./sign-in-throttle.ts says why); the password check
 * waits for a slot in the hash gate. Logs each refusal as one line. `wait` is how the slow-down
 * waits (tests pass their own, so they need not sleep).
 */
export async function checkSignIn(
  db: Db,
  raw: unknown,
  headers: Headers,
  wait: (ms: number) => Promise<unknown> = sleep,
): Promise<SignedInUser> {
  const address = clientAddress(headers);
  const parsed = SignIn.safeParse(raw);
  if (!parsed.success) throw refuse(new SignInRefused("invalid"), "(malformed)", address);
  const email = parsed.data.email.toLowerCase();
  const pair = pairKey(email, address);
  const account = accountKey(email);
  const addressKey = `address:${address}`;

  const lockedMs = Math.max(
    throttles.pair.retryAfterMs(pair),
    throttles.address.retryAfterMs(addressKey),
  );
  if (lockedMs > 0) throw refuse(new SignInRefused("throttled", seconds(lockedMs)), email, address);
  // Before the hash gate, so a waiting attempt holds no slot. The recovery administrator at the
  // machine itself is never slowed: a guesser elsewhere must not stand between them and recovery.
  const delayMs = recoveryPath(email, address) ? 0 : throttles.account.delayMs(account);
  if (delayMs > 0) await wait(delayMs);

  const user = await findUserForSignIn(db, email);
  let ok: boolean;
  try {
    // The same scrypt work whether or not the user exists or has a password, so the time taken
    // does not tell which emails are known.
    const stored = user?.password_hash ?? (await dummyHash());
    ok = await hashGate.run(() => verifyPassword(parsed.data.password, stored));
  } catch (err) {
    if (err instanceof Busy)
      throw refuse(new SignInRefused("busy", err.retryAfterS), email, address);
    throw err;
  }
  if (!user?.password_hash || !ok) {
    throttles.account.fail(account);
    const lockMs = Math.max(throttles.pair.fail(pair), throttles.address.fail(addressKey));
    // The attempt that reaches the limit is told about the lock at once.
    if (lockMs > 0) throw refuse(new SignInRefused("throttled", seconds(lockMs)), email, address);
    throw refuse(new SignInRefused("invalid"), email, address);
  }
  throttles.pair.reset(pair);
  // PASSWORD_SIGN_IN=false: said only after a right password, so it tells no one which email is
  // the recovery administrator's.
  if (!passwordSignInAllowed(email))
    throw refuse(new SignInRefused("password-off"), email, address);
  return { id: user.id, email: user.email, name: user.name ?? user.email, role: user.role };
}

/**
 * The recovery administrator (ADMIN_EMAIL) signing in from this machine (loopback: there is no
 * setting naming other trusted networks). Behind a proxy this needs TRUST_PROXY, or every client
 * would look local.
 */
export function recoveryPath(email: string, address: string, admin = env().ADMIN_EMAIL) {
  if (!admin || admin.toLowerCase() !== email.toLowerCase() || !ipaddr.isValid(address))
    return false;
  return ipaddr.process(address).range() === "loopback";
}

function refuse(err: SignInRefused, email: string, address: string) {
  const why =
    err.reason === "invalid"
      ? "wrong email or password"
      : err.reason === "throttled"
        ? `throttled for ${err.retryAfterS} s`
        : "hash gate full";
  // One line, no stack: a failed sign-in is an everyday event, not a server error.
  console.warn(`[auth] sign-in refused for ${JSON.stringify(email)} from ${address}: ${why}`);
  return err;
}

/** The error code next-auth carries to the page (`?code=`) and to the server action. */
export function refusalCode(err: SignInRefused) {
  if (err.reason === "password-off") return "password-off";
  return err.reason === "invalid" ? "credentials" : `${err.reason}-${err.retryAfterS}`;
}

/** Parses refusalCode's output back; undefined for anything else. */
function parseRefusalCode(code: unknown) {
  const m = typeof code === "string" ? /^(throttled|busy)-(\d{1,6})$/.exec(code) : null;
  const reason = m?.[1];
  return reason === "throttled" || reason === "busy"
    ? { reason, retryAfterS: Number(m?.[2]) }
    : undefined;
}

/** The sentence the sign-in page shows for a refusal code. */
export function refusalMessage(code: unknown) {
  if (code === "password-off") return PASSWORD_OFF;
  const r = parseRefusalCode(code);
  if (!r) return "Wrong email or password.";
  if (r.reason === "busy")
    return "The server is busy checking other sign-ins; try again in a few seconds.";
  const minutes = Math.ceil(r.retryAfterS / 60);
  return `Too many attempts; try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

/**
 * Wraps next-auth's POST handler: a throttled or busy credentials sign-in becomes 429 / 503 with
 * Retry-After instead of a redirect, so scripts and proxies see a refusal they can honour.
 * (The page's own server action reads the code itself and shows the message.)
 */
export function withSignInStatus<R extends Request>(post: (req: R) => Promise<Response>) {
  return async (req: R) => {
    const res = await post(req);
    const location = res.headers.get("location");
    if (!location || !new URL(req.url).pathname.endsWith("/callback/credentials")) return res;
    const r = parseRefusalCode(new URL(location, req.url).searchParams.get("code"));
    if (!r) return res;
    return Response.json(
      { error: r.reason, detail: refusalMessage(`${r.reason}-${r.retryAfterS}`) },
      {
        status: r.reason === "throttled" ? 429 : 503,
        headers: { "retry-after": String(r.retryAfterS), "cache-control": "no-store" },
      },
    );
  };
}
