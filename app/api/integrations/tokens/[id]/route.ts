// DELETE /api/integrations/tokens/{id} — revoke an integration token (administrators only).
import { z } from "zod";
import { getDb } from "@/lib/db";
import { errors } from "@/lib/errors";
import { apiRoute } from "@/lib/http/routes";
import { TrackerError } from "@/lib/tracker/errors";
import { revokeIntegrationToken } from "@/lib/tracker/integration-token";

export const dynamic = "force-dynamic";

export const DELETE = apiRoute<{ id: string }>(
  async ({ params }) => {
    try {
      await revokeIntegrationToken(await getDb(), params.id);
    } catch (err) {
      if (err instanceof TrackerError) throw errors.notFound(err.message);
      throw err;
    }
    return new Response(null, { status: 204 });
  },
  {
    action: "admin",
    params: z.object({
      id: z.uuid({ error: (i) => `No integration token '${String(i.input)}'.` }),
    }),
  },
);
