// /api/auth/* — next-auth's sign-in, sign-out and session endpoints.
import { withClientOrigin } from "@/lib/auth/client-origin";
import { handlers } from "@/lib/auth/session";
import { withSignInStatus } from "@/lib/auth/sign-in-check";
import { withSsoErrors } from "@/lib/auth/sso-errors";

// A refused single sign-on callback lands on the sign-in page with a reason it can explain.
export const GET = withSsoErrors(withClientOrigin(handlers.GET));
// A throttled or busy credentials sign-in answers 429 / 503 with Retry-After, not a redirect.
export const POST = withSignInStatus(withClientOrigin(handlers.POST));
