import type { z } from "zod";
import { errors } from "@/lib/errors";
import type { ResponseSchema } from "./check-response";
import { parseInput } from "./parse-input";
import { parseJsonText, readJsonBody, readTextBody } from "./read-json";

// What a route reads from its request besides the caller: path parameters, query and body,
// each against the schema the route declares (routes.ts).

export type Params = Record<string, string | string[]>;

export type Inputs<B, Q> = {
  /** The JSON body's schema: malformed or ill-typed → 400, a required field missing → 422. */
  body?: z.ZodType<B>;
  /** Body limit in bytes (413 beyond it); 1 MiB unless said. */
  bodyLimit?: number;
  /** No body, or a blank one, is allowed: the handler gets `undefined`. */
  optionalBody?: true;
  /** The answer to a well-typed body whose values break a rule: 400 unless said. */
  invalid?: 400 | 422;
  /** The query string's schema (all values are strings); any failure → 400. */
  query?: z.ZodType<Q>;
  /** Query keys that may repeat: given to the schema as a list when they do. */
  repeatable?: readonly string[];
  /** The path parameters' schema: values it refuses name nothing, a 404 with its message. */
  params?: z.ZodType<Record<string, unknown>>;
  /** The 2xx JSON body's schema as the OpenAPI document gives it, or one per status. */
  response?: ResponseSchema;
};

export function parseParams<P extends Params>(schema: z.ZodType | undefined, params: P): P {
  if (!schema) return params;
  const parsed = schema.safeParse(params);
  if (!parsed.success) throw errors.notFound(parsed.error.issues[0]?.message ?? "Not found.");
  return { ...params, ...(parsed.data as object) };
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

export async function parseBody<B>(request: Request, spec: Inputs<B, unknown>): Promise<B> {
  const limit = spec.bodyLimit ?? 1024 * 1024;
  const schema = spec.body as z.ZodType<B>;
  if (spec.optionalBody) {
    const text = request.body ? await readTextBody(request, limit) : "";
    if (!text.trim()) return undefined as B;
    return parseInput(schema, parseJsonText(text), "body", spec.invalid);
  }
  return parseInput(schema, await readJsonBody(request, limit), "body", spec.invalid);
}
