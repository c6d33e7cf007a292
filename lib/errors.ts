import type { z } from "zod";

// One error type for the whole service. Domain code throws these without knowing about HTTP
// routing; lib/http/problem.ts turns them into RFC 9457 bodies.
export class AppError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "AppError";
  }
}

export type FieldError = { path: string; message: string };

export function zodFieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join(".") || "(body)",
    message: issue.message,
  }));
}

export const errors = {
  unauthorized: (detail = "Send a valid token as `Authorization: Bearer <token>`.") =>
    new AppError(
      "unauthorized",
      401,
      detail,
      {},
      { "www-authenticate": 'Bearer realm="crewdeck"' },
    ),
  notFound: (detail: string) => new AppError("not-found", 404, detail),
  conflict: (detail: string, details: Record<string, unknown> = {}) =>
    new AppError("conflict", 409, detail, details),
  badRequest: (detail: string, fieldErrors?: FieldError[]) =>
    new AppError("bad-request", 400, detail, fieldErrors ? { errors: fieldErrors } : {}),
  unprocessable: (detail: string, details: Record<string, unknown> = {}) =>
    new AppError("validation", 422, detail, details),
  // The unread rest of the body is still on the wire: close the connection rather than reuse it.
  tooLarge: (limitBytes: number) =>
    new AppError(
      "payload-too-large",
      413,
      `The request body is larger than ${limitBytes} bytes; send less data.`,
      { limit_bytes: limitBytes },
      { connection: "close" },
    ),
};

/**
 * What a caught value says: its `message` (an Error, or an error-like object from another realm or
 * library), else the value itself as text (a thrown string).
 */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  const message = errorField(err, "message");
  return typeof message === "string" ? message : String(err);
}

/** A field of a caught value (`code`, `cause`, `errors`…), when the value is an object. */
export function errorField(err: unknown, name: string): unknown {
  return typeof err === "object" && err !== null ? Reflect.get(err, name) : undefined;
}

/** A caught error's `code` (a Node errno such as ENOENT, or a PostgreSQL SQLSTATE), if any. */
export function errorCode(err: unknown): string | undefined {
  const code = errorField(err, "code");
  return typeof code === "string" ? code : undefined;
}
