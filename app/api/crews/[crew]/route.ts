// GET {base_url}/ — health check: answers only to a valid token.

import { forwardGet } from "@/lib/deployments/remote-runs";
import { crewRoute, otherMethods } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

export const GET = crewRoute(async ({ deployment }) => {
  // A remote crew is as healthy as its deployment says.
  if (deployment) await forwardGet(deployment, "");
  return new Response("Healthy", {
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
