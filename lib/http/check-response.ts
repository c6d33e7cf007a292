import { z } from "zod";
import { AppError, zodFieldErrors } from "@/lib/errors";

// With CREWDECK_CHECK_RESPONSES=1 (set by the HTTP tests' server), every 2xx JSON answer of a
// route that declares its response schema is parsed with that schema, and a mismatch becomes a
// 500 naming the route and the fields: any test that sees a drifted body fails there. Off by
// default, so production does not parse each answer a second time.
export const checkingResponses = () => process.env.CREWDECK_CHECK_RESPONSES === "1";

/** One schema for every 2xx answer, or one per status when they differ. */
export type ResponseSchema = z.ZodType | Record<number, z.ZodType>;

/** The answer as it was, or a 500 problem when its JSON body does not match its schema. */
export async function checkResponse(
  declared: ResponseSchema,
  request: Request,
  response: Response,
): Promise<Response> {
  const type = response.headers.get("content-type") ?? "";
  // Streams (SSE), files and 204s have no JSON body to check.
  if (response.status < 200 || response.status > 299 || !type.startsWith("application/json"))
    return response;
  const route = `${request.method} ${new URL(request.url).pathname}`;
  const schema = declared instanceof z.ZodType ? declared : declared[response.status];
  if (!schema)
    throw new AppError(
      "response-mismatch",
      500,
      `${route} answered ${response.status}, a status its route does not declare.`,
    );
  const text = await response.text();
  const parsed = schema.safeParse(JSON.parse(text));
  if (!parsed.success) {
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
