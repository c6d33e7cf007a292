// GET /api/integrations/linear/connect — Connect Linear: off to Linear's consent page, with a
// state bound to this administrator's session and a PKCE challenge.

import * as integrationsApi from "@/lib/api/endpoints/integrations";
import { apiRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { OAuthFailure, settingsRedirect } from "@/lib/tracker/linear/oauth";
import { consentRedirect, startAuthorization } from "@/lib/tracker/linear/oauth-authorize";

export const dynamic = "force-dynamic";

export const GET = apiRoute(integrationsApi.connectLinear, async ({ principal }) => {
  if (principal.kind !== "session")
    return settingsRedirect({
      linear_error: "Connect Linear from the dashboard, signed in.",
    });
  try {
    return consentRedirect(await startAuthorization(await getDb(), principal.userId));
  } catch (err) {
    if (err instanceof OAuthFailure) return settingsRedirect({ linear_error: err.message });
    throw err;
  }
});
