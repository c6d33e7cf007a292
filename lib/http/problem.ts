import type { z } from "zod";

// One error type for the whole service; `toProblem` turns it into an RFC 9457 body.
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

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

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

export function problemBody(err: AppError) {
  return {
    type: `urn:crewdeck:problem:${err.code}`,
    title: TITLES[err.status] ?? "Error",
    status: err.status,
    detail: err.message,
    ...err.details,
  };
}

export function toProblem(err: unknown): Response {
  if (!(err instanceof AppError)) {
    // Unexpected: log it for the operator, tell the client nothing about the internals.
    console.error("[crewdeck] unhandled error:", err);
    return toProblem(new AppError("internal", 500, "Something went wrong on our side."));
  }
  return new Response(JSON.stringify(problemBody(err)), {
    status: err.status,
    headers: { "content-type": "application/problem+json", ...err.headers },
  });
}
