// /api/auth/* — next-auth's sign-in, sign-out and session endpoints.
import { handlers } from "@/lib/auth/session";
import { withSignInStatus } from "@/lib/auth/sign-in-check";

export const { GET } = handlers;
// A throttled or busy credentials sign-in answers 429 / 503 with Retry-After, not a redirect.
export const POST = withSignInStatus(handlers.POST);
