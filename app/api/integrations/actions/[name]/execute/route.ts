// POST /api/integrations/actions/{name}/execute — run one action: {"integration": {…params}}.
import { getDb } from "@/lib/db";
import { readJsonBody, requireObject } from "@/lib/http/read-json";
import { json } from "@/lib/http/respond";
import { executeAction } from "@/lib/tracker/actions";
import { trackerErrorResponse } from "@/lib/tracker/http";
import { assertAllowed, integrationAccess } from "@/lib/tracker/integration-token";

export const dynamic = "force-dynamic";

export async function POST(request: Request, { params }: { params: Promise<{ name: string }> }) {
  try {
    const db = await getDb();
    const access = await integrationAccess(db, request);
    const { name } = await params;
    assertAllowed(access, name);
    const body = requireObject(await readJsonBody(request, 1024 * 1024));
    const result = await executeAction(db, name, body.integration ?? {}, {
      actor: "integration-token",
    });
    return json(result);
  } catch (err) {
    return trackerErrorResponse(err);
  }
}
