import { AppError } from "@/lib/errors";
import { TrackerError } from "./errors";

/** Tracker failures over HTTP: `{"error": {"code", "message"}}` with the code's status. */
export function trackerErrorResponse(err: unknown): Response {
  if (err instanceof TrackerError) {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (err.status === 401) headers["www-authenticate"] = 'Bearer realm="crewdeck-integrations"';
    return new Response(JSON.stringify(err.toJSON()), { status: err.status, headers });
  }
  if (err instanceof AppError) {
    return new Response(JSON.stringify({ error: { code: err.code, message: err.message } }), {
      status: err.status,
      headers: { "content-type": "application/json", ...err.headers },
    });
  }
  console.error("[crewdeck] integration action failed:", err);
  return new Response(
    JSON.stringify({ error: { code: "internal", message: "Something went wrong on our side." } }),
    {
      status: 500,
      headers: { "content-type": "application/json" },
    },
  );
}
