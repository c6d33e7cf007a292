import type { z } from "zod";
import { AppError, zodFieldErrors } from "@/lib/errors";

// With CREWDECK_CHECK_RESPONSES=1 (set by the HTTP tests' server), every 2xx JSON answer of a
// route that declares its response schema is parsed with that schema, and a mismatch becomes a
// 500 naming the route and the fields: any test that sees a drifted body fails there. Off by
// default, so production does not parse each answer a second time.
export const checkingResponses = () => process.env.CREWDECK_CHECK_RESPONSES === "1";

/** The answer as it was, or a 500 problem when its JSON body does not match `schema`. */
export async function checkResponse(
  schema: z.ZodType,
  request: Request,
  response: Response,
): Promise<Response> {
  const type = response.headers.get("content-type") ?? "";
  // Streams (SSE), files and 204s have no JSON body to check.
  if (response.status < 200 || response.status > 299 || !type.startsWith("application/json"))
    return response;
  const text = await response.text();
  const parsed = schema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    const route = `${request.method} ${new URL(request.url).pathname}`;
    console.error(
      `[crewdeck] the answer of ${route} does not match its response schema:`,
      JSON.stringify(parsed.error.issues),
    );
    throw new AppError(
      "response-mismatch",
      500,
      `The answer of ${route} does not match its declared response schema.`,
      { errors: zodFieldErrors(parsed.error) },
    );
  }
  return new Response(text, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
