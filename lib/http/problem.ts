import { AppError } from "@/lib/errors";

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

export function problemBody(err: AppError) {
  return {
    type: `urn:crewdeck:problem:${err.code}`,
    title: TITLES[err.status] ?? "Error",
    status: err.status,
    detail: err.message,
    ...err.details,
  };
}

/**
 * `integration`: the tracker actions' callers are CrewAI runtimes, whose platform tools read an
 * error's text from `error.message`; their problem bodies carry that member too.
 */
export type ProblemShape = "problem" | "integration";

export function toProblem(err: unknown, shape: ProblemShape = "problem"): Response {
  if (!(err instanceof AppError)) {
    // Unexpected: log it for the operator, tell the client nothing about the internals.
    console.error("[crewdeck] unhandled error:", err);
    return toProblem(new AppError("internal", 500, "Something went wrong on our side."), shape);
  }
  const body = problemBody(err);
  if (shape === "integration")
    Object.assign(body, { error: { code: err.code, message: err.message } });
  return new Response(JSON.stringify(body), {
    status: err.status,
    headers: { "content-type": "application/problem+json", ...err.headers },
  });
}
