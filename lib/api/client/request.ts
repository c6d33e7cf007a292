import { z } from "zod";
import { ProblemSchema } from "@/lib/api/schemas";

// The dashboard's HTTP core: the same endpoints and rules as any script (the session cookie
// stands in for the bearer token). Every body is parsed with the zod schema the server answers
// with, so a drifted response fails loudly here instead of rendering `undefined` three screens on.
export type Problem = z.infer<typeof ProblemSchema>;

export class ApiError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail);
  }
}

const ClientProblemSchema = ProblemSchema.partial({ type: true }).passthrough();

/** An empty schema for answers without a body (204). */
export const NoContent = z.undefined();

export async function request<S extends z.ZodType>(
  schema: S,
  method: string,
  path: string,
  body?: unknown,
): Promise<z.infer<S>> {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? undefined : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
    cache: "no-store",
  });
  const text = res.status === 204 ? "" : await res.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (!res.ok) {
    const problem = ClientProblemSchema.safeParse(data);
    throw new ApiError(
      problem.success
        ? { type: "about:blank", ...problem.data }
        : {
            type: "about:blank",
            status: res.status,
            title: res.statusText,
            detail: `The server answered ${res.status}.`,
          },
    );
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    throw new ApiError({
      type: "urn:crewdeck:problem:unexpected_response",
      status: res.status,
      title: "Unexpected response",
      detail: `The server's answer to ${method} ${path.split("?")[0]} did not have the expected shape.`,
    });
  }
  return parsed.data;
}
