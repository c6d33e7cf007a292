import { z } from "zod";
import type { Db } from "@/lib/db/types";
import { AppError, errors, zodFieldErrors } from "@/lib/errors";
import { clientAddress } from "./client-address";
import { throttles } from "./sign-in-throttle";
import { createFirstAdmin, type User } from "./users";

// First-run setup as the page's server action and POST /api/setup both do it: the body's shape,
// wrong setup codes throttled per client address, then createFirstAdmin.

export const SetupRequest = z
  .object({
    code: z
      .string()
      .trim()
      .min(1, "is required: the setup code printed on the server console")
      .max(100),
    email: z.string().max(320),
    name: z.string().trim().max(200).optional(),
    password: z.string().max(500),
  })
  .meta({ id: "SetupRequest" });

export async function runFirstSetup(db: Db, body: unknown, headers: Headers): Promise<User> {
  const parsed = SetupRequest.safeParse(body);
  if (!parsed.success)
    throw errors.unprocessable("Invalid setup request.", { errors: zodFieldErrors(parsed.error) });
  const key = `setup:${clientAddress(headers)}`;
  const lockedMs = throttles.setup.retryAfterMs(key);
  if (lockedMs > 0) throw tooManyCodes(lockedMs);
  const { code, ...admin } = parsed.data;
  try {
    return await createFirstAdmin(db, { ...admin, name: admin.name || undefined }, code);
  } catch (err) {
    if (err instanceof AppError && err.code === "wrong-setup-code") {
      console.warn(`[auth] wrong setup code from ${clientAddress(headers)}`);
      const lockMs = throttles.setup.fail(key);
      if (lockMs > 0) throw tooManyCodes(lockMs);
    }
    throw err;
  }
}

function tooManyCodes(ms: number) {
  const s = Math.max(1, Math.ceil(ms / 1000));
  const minutes = Math.ceil(s / 60);
  return new AppError(
    "rate-limited",
    429,
    `Too many attempts; try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    {},
    { "retry-after": String(s) },
  );
}
