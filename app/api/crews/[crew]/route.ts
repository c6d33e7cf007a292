// GET {base_url}/ — health check: answers only to a valid token.
import { crewRoute, otherMethods } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

export const GET = crewRoute(
  async () =>
    new Response("Healthy", {
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
    }),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
