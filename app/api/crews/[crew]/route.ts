// GET {base_url}/ — health check: answers only to a valid token.

import * as crewApi from "@/lib/api/endpoints/crew";
import { crewRoute, otherMethods } from "@/lib/api/route";
import { forwardGet } from "@/lib/deployments/remote-runs";

export const dynamic = "force-dynamic";

export const GET = crewRoute(crewApi.health, async ({ deployment }) => {
  // A remote crew is as healthy as its deployment says.
  if (deployment) await forwardGet(deployment, "");
  return new Response("Healthy", {
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
