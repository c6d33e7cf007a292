import type { z } from "zod";
import { errors } from "@/lib/errors";
import { parseInput } from "./parse-input";
import { parseJsonText, readJsonBody, readTextBody } from "./read-json";

// What a route reads from its request besides the caller: path parameters, query and body,
// each against the schema the route declares (routes.ts).

export type Params = Record<string, string | string[]>;

/** A JSON body as a route reads it. */
export type BodyInput<S extends z.ZodType = z.ZodType> = {
  /** Malformed or ill-typed → 400, a required field missing → 422. */
  schema: S;
  /** In bytes (413 beyond it): 1 MiB unless said. */
  limit?: number;
  /** No body, or a blank one, is allowed: the handler gets `undefined`. */
  optional?: true;
  /** The answer to a well-typed body whose values break a rule: 400 unless said. */
  invalid?: 400 | 422;
};

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * The path parameters, parsed: a value the schema refuses names nothing, so a 404 with its
 * message. A catch-all segment (`[...name]`) comes as its parts, joined here with `/`.
 */
export function parseParams<P>(schema: z.ZodType<P>, params: Params): P {
  const joined = Object.fromEntries(
    Object.entries(params).map(([key, value]) => [
      key,
      Array.isArray(value) ? value.join("/") : value,
    ]),
  );
  const parsed = schema.safeParse(joined);
  if (!parsed.success) throw errors.notFound(parsed.error.issues[0]?.message ?? "Not found.");
  return parsed.data;
}

export function queryOf(request: Request, repeatable: readonly string[] = []) {
  const search = new URL(request.url).searchParams;
  const query: Record<string, string | string[]> = Object.fromEntries(search);
  for (const key of repeatable) {
    const all = search.getAll(key);
    if (all.length > 1) query[key] = all;
  }
  return query;
}

export async function parseBody(request: Request, spec: BodyInput): Promise<unknown> {
  const limit = spec.limit ?? DEFAULT_BODY_LIMIT;
  if (spec.optional) {
    const text = request.body ? await readTextBody(request, limit) : "";
    if (!text.trim()) return undefined;
    return parseInput(spec.schema, parseJsonText(text), "body", spec.invalid);
  }
  return parseInput(spec.schema, await readJsonBody(request, limit), "body", spec.invalid);
}
