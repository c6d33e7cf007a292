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

// CrewAI's name for the kind of error where it differs from the HTTP title (its published API
// answers a missing input with `"error": "Validation Error"`, a bad request with "Invalid Request").
const CREWAI_ERRORS: Record<number, string> = {
  400: "Invalid Request",
  422: "Validation Error",
};

/**
 * An RFC 9457 problem that a CrewAI client reads too: `error` and `message` as CrewAI's API
 * answers, and a 422's missing inputs also under `details.missing_inputs`.
 */
function problemBody(err: AppError) {
  const title = TITLES[err.status] ?? "Error";
  const missing = err.details.missing_inputs;
  return {
    type: `urn:crewdeck:problem:${err.code}`,
    title,
    status: err.status,
    detail: err.message,
    error: CREWAI_ERRORS[err.status] ?? title,
    message: err.message,
    ...err.details,
    ...(Array.isArray(missing) ? { details: { missing_inputs: missing } } : {}),
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
