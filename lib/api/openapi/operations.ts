import { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import { type Action, can, ROLES } from "@/lib/auth/roles";

// How the OpenAPI document's operations are declared: each one names its full path template, and
// its path parameters are read from that template, so a parameter can never be declared that the
// path does not contain (strict OpenAPI 3.1 validators reject that) nor one be left out.

type Method = "get" | "post" | "put" | "patch" | "delete";
type JsonSchema = Record<string, unknown>;

/** Who may call an operation. */
type Access =
  /** apiRoute / crewRoute: a bearer token or the dashboard's session, allowed `action` (roles.ts). */
  | {
      action: Action;
      /** Only the dashboard's session (the handler refuses tokens). */
      sessionOnly?: true;
      /** What belongs to a person: the handler refuses organization tokens. */
      personOnly?: true;
    }
  /** integrationRoute: an integration token (read tokens may only call read actions). */
  | { integrationToken: true }
  /** The local admin secret in DATA_DIR (`npm run token`). */
  | { localAdmin: true }
  /** No credential; says what proves the caller instead. `plain`: not built with the route builder. */
  | { public: string; plain?: true };

type Reply = {
  description: string;
  /** A zod schema with a `.meta({ id })` (a component), or a JSON Schema for non-JSON media. */
  schema?: z.ZodType | JsonSchema;
  mediaType?: string;
};

export type OperationSpec = {
  method: Method;
  /** The full path template, e.g. `/api/crews/{crew}/status/{kickoff_id}`. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  access: Access;
  /** Path parameter descriptions that differ from the shared ones (PATH_PARAMS). */
  pathParams?: Record<string, string>;
  /** The query schema the handler parses with; each property becomes a query parameter. */
  query?: z.ZodObject;
  /** Parameters no zod schema describes (headers, a query value read by hand). */
  parameters?: Record<string, unknown>[];
  body?: { schema: z.ZodType | JsonSchema; required?: false; description?: string };
  responses: Record<number, Reply>;
  /** Problem answers of this operation beyond those its access brings (401, 403, 429, 503). */
  problems?: Record<number, string>;
};

const uuid = { type: "string", format: "uuid" };
const PATH_PARAMS: Record<string, { schema: JsonSchema; description: string }> = {
  crew: {
    schema: { type: "string" },
    description:
      "The crew's slug (its folder name), or `@<deployment>` for the crew a remote deployment serves.",
  },
  kickoff_id: { schema: uuid, description: "The execution's `kickoff_id`." },
  task_id: { schema: { type: "string" }, description: "The task's id in the crew file." },
  id: { schema: { type: "string" }, description: "The id, as the list answers it." },
  deployment: { schema: { type: "string" }, description: "The remote deployment's slug." },
  position: { schema: { type: "integer", minimum: 1 }, description: "The row's position." },
  run: { schema: uuid, description: "The run's `kickoff_id` on this server." },
  kind: { schema: { type: "string", enum: ["task", "step", "crew"] }, description: "The event." },
  name: {
    schema: { type: "string" },
    description: "The action's name, as GET /api/integrations/actions lists it.",
  },
};

/** The component a schema is, by its `.meta({ id })`; a schema without one is inlined. */
function schemaOf(schema: z.ZodType | JsonSchema): JsonSchema {
  if (!(schema instanceof z.ZodType)) return schema;
  const id = z.globalRegistry.get(schema)?.id;
  if (id) return { $ref: `#/components/schemas/${id}` };
  const { $schema: _s, ...inline } = z.toJSONSchema(schema, JSON_SCHEMA_OPTIONS) as JsonSchema;
  return inline;
}

export const JSON_SCHEMA_OPTIONS = {
  target: "draft-2020-12",
  io: "input",
  unrepresentable: "any",
} as const;

const problemRef = (name: string) => ({ $ref: `#/components/responses/${name}` });

/** Who qualifies for `action`, straight from can(): so the document follows the code. */
function principalsFor(action: Action) {
  const base = { tokenId: "t", userId: "u", email: "e" };
  return {
    org: can({ kind: "org", tokenId: null }, action),
    userRoles: ROLES.filter((role) => can({ ...base, kind: "user", role } as Principal, action)),
    sessionRoles: ROLES.filter((role) => can({ ...base, kind: "session", role }, action)),
  };
}

function accessOf(access: Access) {
  if ("action" in access) {
    const { org, userRoles, sessionRoles } = principalsFor(access.action);
    const bearer = access.sessionOnly
      ? []
      : [...(org && !access.personOnly ? ["org"] : []), ...userRoles.map((r) => `user:${r}`)];
    const everyone =
      !access.sessionOnly &&
      !access.personOnly &&
      org &&
      userRoles.length === ROLES.length &&
      sessionRoles.length === ROLES.length;
    return {
      security: [...(bearer.length ? [{ bearer }] : []), { session: sessionRoles }],
      problems: {
        401: problemRef("Unauthorized"),
        ...(everyone ? {} : { 403: problemRef("Forbidden") }),
        429: problemRef("TooManyRequests"),
        503: problemRef("Unavailable"),
      },
    };
  }
  if ("integrationToken" in access)
    return {
      security: [{ integrationToken: [] }],
      problems: {
        401: problemRef("Unauthorized"),
        403: problemRef("Forbidden"),
        429: problemRef("TooManyRequests"),
        503: problemRef("Unavailable"),
      },
    };
  if ("localAdmin" in access)
    return {
      security: [{ localAdmin: [] }],
      problems: {
        403: problemRef("Forbidden"),
        429: problemRef("TooManyRequests"),
        503: problemRef("Unavailable"),
      },
    };
  return { security: [], problems: access.plain ? {} : { 503: problemRef("Unavailable") } };
}

function pathParameters(spec: OperationSpec) {
  return [...spec.path.matchAll(/\{([^}]+)\}/g)].map(([, name = ""]) => {
    const known = PATH_PARAMS[name];
    if (!known) throw new Error(`No description of the path parameter {${name}} (${spec.path})`);
    return {
      name,
      in: "path",
      required: true,
      description: spec.pathParams?.[name] ?? known.description,
      schema: known.schema,
    };
  });
}

function queryParameters(schema: z.ZodObject | undefined) {
  if (!schema) return [];
  const json = z.toJSONSchema(schema, JSON_SCHEMA_OPTIONS) as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, { description, ...property }]) => ({
    name,
    in: "query",
    required: json.required?.includes(name) ?? false,
    ...(typeof description === "string" ? { description } : {}),
    schema: property,
  }));
}

const problem = (description: string) => ({
  description,
  content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
});

function reply({ description, schema, mediaType = "application/json" }: Reply) {
  return schema
    ? { description, content: { [mediaType]: { schema: schemaOf(schema) } } }
    : { description };
}

function operation(spec: OperationSpec) {
  const access = accessOf(spec.access);
  const parameters = [
    ...pathParameters(spec),
    ...queryParameters(spec.query),
    ...(spec.parameters ?? []),
  ];
  return {
    operationId: spec.operationId,
    tags: [spec.tag],
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    security: access.security,
    // What proves a caller that sends no credential (a signature, a secret in the URL, …).
    ...("public" in spec.access ? { "x-credential": spec.access.public } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(spec.body
      ? {
          requestBody: {
            required: spec.body.required ?? true,
            ...(spec.body.description ? { description: spec.body.description } : {}),
            content: { "application/json": { schema: schemaOf(spec.body.schema) } },
          },
        }
      : {}),
    responses: Object.fromEntries(
      [
        ...Object.entries(spec.responses).map(([code, r]) => [code, reply(r)] as const),
        ...Object.entries(access.problems),
        ...Object.entries(spec.problems ?? {}).map(([code, d]) => [code, problem(d)] as const),
      ].sort(([a], [b]) => Number(a) - Number(b)),
    ),
  };
}

/** The document's `paths`, grouped by template; each method of a path declared once. */
export function buildPaths(specs: OperationSpec[]) {
  const paths: Record<string, Partial<Record<Method, ReturnType<typeof operation>>>> = {};
  for (const spec of specs) {
    const item = paths[spec.path] ?? {};
    if (item[spec.method]) throw new Error(`${spec.method} ${spec.path} is declared twice`);
    item[spec.method] = operation(spec);
    paths[spec.path] = item;
  }
  return paths;
}

/** The answers every credentialed operation may give, shared as components. */
export const sharedResponses = {
  Unauthorized: {
    ...problem("Missing, malformed, unknown or revoked credential."),
    headers: { "WWW-Authenticate": { schema: { type: "string", example: "Bearer" } } },
  },
  Forbidden: problem("The credential is valid but may not do this (see the operation's access)."),
  TooManyRequests: {
    ...problem("Rate limited; retry after the given seconds."),
    headers: { "Retry-After": { schema: { type: "integer" } } },
  },
  Unavailable: {
    ...problem("This instance is shutting down or the database is unreachable; retry shortly."),
    headers: { "Retry-After": { schema: { type: "integer" } } },
  },
};
