import type { z } from "zod";
import type { ProblemSchema } from "@/lib/contract/problem";

// The dashboard's HTTP core: the same endpoints and rules as any script (the session cookie
// stands in for the bearer token). Every body is parsed with the zod schema the server answers
// with, so a drifted response fails loudly here instead of rendering `undefined` three screens on.
//
// The schemas (and zod, ~40 kB gzip) are imported on the first call rather than with the page:
// a request is asynchronous anyway, so parsing can wait for the chunk without delaying the first
// paint, and no page pays for zod in its first-load JavaScript. Each area's contract
// (lib/contract/<area>.ts) is its own chunk, so a page loads only the areas it calls.
type Problem = z.infer<typeof ProblemSchema>;

/** What the dashboard reads of an error: the RFC 9457 members (CrewAI's duplicates are optional). */
export type ProblemDetail = Omit<Problem, "error" | "message"> &
  Partial<Pick<Problem, "error" | "message">>;

export class ApiError extends Error {
  constructor(readonly problem: ProblemDetail) {
    super(problem.detail);
  }
}

/** A schema loaded on first use. */
export type SchemaRef<S extends z.ZodType> = () => Promise<S>;
type SchemaName<M> = { [K in keyof M]: M[K] extends z.ZodType ? K : never }[keyof M];

/** One area's schemas, imported when a request first needs one of them. */
export function contract<M>(load: () => Promise<M>) {
  let loading: Promise<M> | undefined;
  return <K extends SchemaName<M>>(name: K): SchemaRef<M[K] & z.ZodType> =>
    async () => {
      loading ??= load();
      return (await loading)[name] as M[K] & z.ZodType;
    };
}

const problems = contract(() => import("@/lib/contract/problem"));
const problemSchema = problems("ProblemSchema");
/** The answer without a body (204). */
export const noContent = problems("NoContentSchema");

export async function request<S extends z.ZodType>(
  answer: SchemaRef<S>,
  method: string,
  path: string,
  body?: unknown,
  /** Sends `body` (a string) as is, with this content type, instead of as JSON. */
  contentType?: string,
): Promise<z.infer<S>> {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? undefined : { "content-type": contentType ?? "application/json" },
    body: body === undefined ? undefined : contentType ? String(body) : JSON.stringify(body),
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
    const problem = (await problemSchema())
      .partial({ type: true, error: true, message: true })
      .passthrough()
      .safeParse(data);
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
  const parsed = (await answer()).safeParse(data);
  if (!parsed.success) {
    // For whoever opens the console: which fields drifted (the page shows a plain message).
    console.error(`Unexpected answer to ${method} ${path}:`, JSON.stringify(parsed.error.issues));
    throw new ApiError({
      type: "urn:crewdeck:problem:unexpected_response",
      status: res.status,
      title: "Unexpected response",
      detail: `The server's answer to ${method} ${path.split("?")[0]} did not have the expected shape.`,
    });
  }
  return parsed.data;
}
