// GET /api/integrations/linear/callback — Linear sends the browser back here after consent. Every
// outcome lands on the settings page, with what happened in words; nothing is saved on failure.

import { authenticate } from "@/lib/auth/authenticate";
import { roleAllows } from "@/lib/auth/roles";
import { getDb } from "@/lib/db";
import { errorMessage } from "@/lib/errors";
import { OAuthFailure, settingsRedirect } from "@/lib/tracker/linear/oauth";
import { completeAuthorization } from "@/lib/tracker/linear/oauth-authorize";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  let principal: Awaited<ReturnType<typeof authenticate>>;
  try {
    principal = await authenticate(request);
  } catch {
    return settingsRedirect({
      linear_error:
        "Your session ended before Linear answered; sign in and click Connect Linear again.",
    });
  }
  if (principal.kind !== "session" || !roleAllows(principal.role, "admin"))
    return settingsRedirect({ linear_error: "Only an administrator can connect Linear." });
  try {
    const connection = await completeAuthorization(await getDb(), {
      userId: principal.userId,
      email: principal.email,
      query: new URL(request.url).searchParams,
      cookie: request.headers.get("cookie"),
    });
    return settingsRedirect({ linear: "connected", workspace: connection.workspace });
  } catch (err) {
    if (err instanceof OAuthFailure) return settingsRedirect({ linear_error: err.message });
    console.error(`[linear] OAuth callback failed: ${errorMessage(err)}`);
    return settingsRedirect({
      linear_error: "Connecting Linear failed on our side; try again, and see the server log.",
    });
  }
}
