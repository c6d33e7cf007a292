import { z } from "zod";
import type { Action } from "@/lib/auth/roles";
import type { RouteAction } from "@/lib/http/route-actions";
import type { BodyInput } from "@/lib/http/route-inputs";
import { PATH_PARAMS, type PathParamName } from "./path-params";
import type { Tag } from "./tags";

// One API endpoint, described once: the route builder (lib/api/route.ts) serves it with this
// access, these path parameters, query and body, and checks its answers against these responses
// in the HTTP tests; the OpenAPI document (lib/api/openapi.ts) is generated from the same object.

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type JsonSchema = Record<string, unknown>;

/** A bearer token or the dashboard's session, whose role may take `action` (lib/auth/roles.ts). */
export type TokenAccess = {
  action: Action;
  /**
   * The role check is not the whole check: the handler scopes every record to the caller
   * (`self`), or checks the action each call names (`per-call`); or it only refuses (`refused`,
   * never documented). See lib/http/route-actions.ts.
   */
  inside?: "self" | "per-call" | "refused";
  /** Only the dashboard's session: a token gets a 403 with this message before the body is read. */
  sessionOnly?: string;
  /** What it reads or writes belongs to a person: the handler refuses organization tokens. */
  personOnly?: true;
};

/** Who may call an endpoint, and so which builder of lib/api/route.ts serves it. */
export type Access =
  | TokenAccess
  /** An integration token (agent runtimes): a read token may run only the read actions. */
  | { integrationToken: true }
  /** The local admin secret in DATA_DIR (`npm run token`). */
  | { localAdmin: true }
  /**
   * No credential: says what proves the caller instead (a signature, a secret in the URL, …).
   * `plain`: served without the route builder (liveness, a static document), see plainRoute.
   */
  | { public: string; plain?: true };

export type Reply = {
  description: string;
  /** A zod schema (a component when it has a `.meta({ id })`), or a JSON Schema for other media. */
  schema?: z.ZodType | JsonSchema;
  /** `application/json` unless said: only JSON answers are checked against their schema. */
  mediaType?: string;
};

export type BodySpec<S extends z.ZodType = z.ZodType> = BodyInput<S> & { description?: string };

/** The `{name}`s of a path template. */
type ParamNames<P extends string> = P extends `${string}{${infer N}}${infer Rest}`
  ? N | ParamNames<Rest>
  : never;
type ParamOverrides = Partial<Record<string, z.ZodType>>;

export type EndpointSpec<
  Path extends string = string,
  A extends Access = Access,
  B extends BodySpec | undefined = BodySpec | undefined,
  Q extends z.ZodObject | undefined = z.ZodObject | undefined,
  PS extends ParamOverrides = ParamOverrides,
> = {
  method: Method;
  /** The full path template, e.g. `/api/crews/{crew}/status/{kickoff_id}`: its file's path. */
  path: Path;
  operationId: string;
  tag: Tag;
  summary: string;
  description?: string;
  /** Why the document leaves it out: only a browser calls it (a redirect, a consent page). */
  browserOnly?: string;
  access: A;
  /** Path parameters parsed otherwise than PATH_PARAMS says (a UUID id, its own 404 message). */
  params?: PS;
  /** The query string's schema (all values are strings); any failure → 400. */
  query?: Q;
  /** Query keys that may repeat: given to the schema as a list when they do. */
  repeatable?: readonly string[];
  /** Parameters no zod schema describes (a header): for the document only. */
  parameters?: JsonSchema[];
  body?: B;
  /**
   * A body the handler reads from the request itself (a signed payload's exact bytes, CSV rows),
   * within its own limit: the builder leaves it unread, the document describes it. Not with `body`.
   */
  ownBody?: { schema: z.ZodType | JsonSchema; description?: string };
  /** Every answer that is not a problem, by status: a 2xx with a body names its schema. */
  responses: Record<number, Reply>;
  /** Problem answers beyond those its access brings (401, 403, 429, 503) and a body's 413. */
  problems?: Record<number, string>;
};

export type Endpoint<
  Path extends string = string,
  A extends Access = Access,
  B extends BodySpec | undefined = BodySpec | undefined,
  Q extends z.ZodObject | undefined = z.ZodObject | undefined,
  PS extends ParamOverrides = ParamOverrides,
> = EndpointSpec<Path, A, B, Q, PS> & {
  /** The path parameters' schema, every one of the template's names: a refusal is a 404. */
  paramsSchema: z.ZodType<PathParams<Path, PS>>;
  /** What the route declares it checks (lib/http/route-actions.ts). */
  action: RouteAction;
  /** The JSON answers' schemas by status, as the HTTP tests check every answer. */
  responseSchemas: Record<number, z.ZodType>;
};

type ParamValue<K, PS> = K extends keyof PS
  ? z.output<NonNullable<PS[K]>>
  : K extends PathParamName
    ? z.output<(typeof PATH_PARAMS)[K]>
    : string;

type PathParams<Path extends string, PS> = { [K in ParamNames<Path>]: ParamValue<K, PS> };

/** What a handler of `E` gets. */
export type ParamsOf<E extends Endpoint> = z.output<E["paramsSchema"]>;
export type BodyOf<E> =
  E extends Endpoint<string, Access, infer B>
    ? B extends BodySpec<infer S>
      ? B extends { optional: true }
        ? z.output<S> | undefined
        : z.output<S>
      : undefined
    : never;
export type QueryOf<E> =
  E extends Endpoint<string, Access, BodySpec | undefined, infer Q>
    ? Q extends z.ZodObject
      ? z.output<Q>
      : undefined
    : never;

function routeAction(access: Access): RouteAction {
  if ("action" in access) return access.inside ?? access.action;
  if ("integrationToken" in access) return "per-call";
  return "secret";
}

/** The template's parameters, each parsed with its override or PATH_PARAMS' schema. */
function paramsSchemaOf<Path extends string, PS extends ParamOverrides>(
  path: Path,
  overrides?: PS,
): z.ZodType<PathParams<Path, PS>> {
  const names = [...path.matchAll(/\{([^}]+)\}/g)].map(([, name = ""]) => name);
  for (const name of Object.keys(overrides ?? {}))
    if (!names.includes(name)) throw new Error(`${path} has no {${name}} to override`);
  const shape = Object.fromEntries(
    names.map((name) => {
      const schema = overrides?.[name] ?? KNOWN_PARAMS[name];
      if (!schema) throw new Error(`No schema for the path parameter {${name}} (${path})`);
      return [name, schema];
    }),
  );
  // The one place types meet the template: the shape has exactly the template's names, each
  // with the schema ParamValue reads from the same override or PATH_PARAMS.
  return z.object(shape) as unknown as z.ZodType<PathParams<Path, PS>>;
}

const KNOWN_PARAMS: Partial<Record<string, z.ZodType>> = PATH_PARAMS;

const isZod = (schema: Reply["schema"]): schema is z.ZodType => schema instanceof z.ZodType;

/** Each answer with a body names its schema: an undescribed 2xx is a mistake, not a default. */
function responseSchemasOf(path: string, responses: Record<number, Reply>) {
  const schemas: Record<number, z.ZodType> = {};
  for (const [code, reply] of Object.entries(responses)) {
    const status = Number(code);
    const needsBody = status >= 200 && status < 300 && status !== 204;
    if (needsBody && !reply.schema) throw new Error(`${path} answers ${status} with no schema`);
    if (isZod(reply.schema) && (reply.mediaType ?? "application/json") === "application/json")
      schemas[status] = reply.schema;
  }
  if (!Object.keys(responses).some((code) => Number(code) < 400))
    throw new Error(`${path} declares no answer but problems`);
  return schemas;
}

/** Describe one endpoint: checked when its module loads, so a malformed one fails every test. */
export function endpoint<
  const Path extends string,
  A extends Access,
  B extends BodySpec | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  PS extends ParamOverrides = Record<never, never>,
>(spec: EndpointSpec<Path, A, B, Q, PS>): Endpoint<Path, A, B, Q, PS> {
  const where = `${spec.method} ${spec.path}`;
  return {
    ...spec,
    paramsSchema: paramsSchemaOf(spec.path, spec.params),
    action: routeAction(spec.access),
    responseSchemas: responseSchemasOf(where, spec.responses),
  };
}
