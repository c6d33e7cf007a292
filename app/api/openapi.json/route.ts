// GET /api/openapi.json — the API description, generated from the zod schemas.
import { openApiDocument } from "@/lib/api/openapi";
import { json } from "@/lib/http/respond";

export const dynamic = "force-static";

export const GET = () =>
  json(openApiDocument(), { headers: { "cache-control": "public, max-age=300" } });
