// GET /api/openapi.json — the API description, generated from the zod schemas.
import * as adminApi from "@/lib/api/endpoints/admin";
import { openApiDocument } from "@/lib/api/openapi";
import { plainRoute } from "@/lib/api/route";
import { json } from "@/lib/http/respond";

export const dynamic = "force-static";

export const GET = plainRoute(adminApi.openapi, () =>
  json(openApiDocument(), { headers: { "cache-control": "public, max-age=300" } }),
);
