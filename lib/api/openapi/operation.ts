import { z } from "zod";
import type { Access, Endpoint, JsonSchema, Reply } from "@/lib/api/endpoints/endpoint";
import type { Principal } from "@/lib/auth/principal";
import { type Action, can, ROLES } from "@/lib/auth/roles";
import { DEFAULT_BODY_LIMIT } from "@/lib/http/route-inputs";

// One endpoint as the OpenAPI document's operation: everything here is read from the endpoint the
// route serves, so the document cannot say what the route does not do.

export const JSON_SCHEMA_OPTIONS = {
  target: "draft-2020-12",
  io: "input",
  unrepresentable: "any",
} as const;

const JsonSchemaShape = z.record(z.string(), z.unknown());
const ObjectSchemaShape = z.object({
  properties: z.record(z.string(), JsonSchemaShape).optional(),
  required: z.array(z.string()).optional(),
});

const toJson = (schema: z.ZodType): JsonSchema => {
  const { $schema: _s, ...inline } = JsonSchemaShape.parse(
    z.toJSONSchema(schema, JSON_SCHEMA_OPTIONS),
  );
  return inline;
};

/** The component a schema is, by its `.meta({ id })`; a schema without one is inlined. */
function schemaOf(schema: z.ZodType | JsonSchema): JsonSchema {
  if (!(schema instanceof z.ZodType)) return schema;
  const id = z.globalRegistry.get(schema)?.id;
  return id ? { $ref: `#/components/schemas/${id}` } : toJson(schema);
}

const problemRef = (name: string) => ({ $ref: `#/components/responses/${name}` });

/** Who qualifies for `action`, straight from can(): so the document follows the code. */
function principalsFor(action: Action) {
  const base = { tokenId: "t", userId: "u", email: "e" };
  const user = (role: (typeof ROLES)[number]): Principal => ({ ...base, kind: "user", role });
  return {
    org: can({ kind: "org", tokenId: null }, action),
    userRoles: ROLES.filter((role) => can(user(role), action)),
    sessionRoles: ROLES.filter((role) => can({ ...base, kind: "session", role }, action)),
  };
}

const CREDENTIAL_PROBLEMS = {
  401: problemRef("Unauthorized"),
  403: problemRef("Forbidden"),
  429: problemRef("TooManyRequests"),
  503: problemRef("Unavailable"),
};

function accessOf(access: Access) {
  if ("action" in access) {
    const { org, userRoles, sessionRoles } = principalsFor(access.action);
    const personOnly = access.personOnly || access.inside === "self";
    const bearer = access.sessionOnly
      ? []
      : [...(org && !personOnly ? ["org"] : []), ...userRoles.map((r) => `user:${r}`)];
    const everyone =
      !access.sessionOnly &&
      !personOnly &&
      org &&
      userRoles.length === ROLES.length &&
      sessionRoles.length === ROLES.length;
    const { 403: _forbidden, ...others } = CREDENTIAL_PROBLEMS;
    return {
      security: [...(bearer.length ? [{ bearer }] : []), { session: sessionRoles }],
      problems: everyone ? others : CREDENTIAL_PROBLEMS,
    };
  }
  if ("integrationToken" in access)
    return { security: [{ integrationToken: [] }], problems: CREDENTIAL_PROBLEMS };
  const { 401: _unauthorized, ...refusals } = CREDENTIAL_PROBLEMS;
  if ("localAdmin" in access) return { security: [{ localAdmin: [] }], problems: refusals };
  return { security: [], problems: access.plain ? {} : { 503: problemRef("Unavailable") } };
}

function pathParameters(endpoint: Endpoint) {
  const { properties = {} } = ObjectSchemaShape.parse(toJson(endpoint.paramsSchema));
  return Object.entries(properties).map(([name, { description, pattern, ...schema }]) => ({
    name,
    in: "path",
    required: true,
    ...(typeof description === "string" ? { description } : {}),
    // A UUID's format says it: zod's pattern for one would only make the document harder to read.
    schema: schema.format === "uuid" ? schema : { ...schema, ...(pattern ? { pattern } : {}) },
  }));
}

function queryParameters(schema: z.ZodObject | undefined) {
  if (!schema) return [];
  const { properties = {}, required = [] } = ObjectSchemaShape.parse(toJson(schema));
  return Object.entries(properties).map(([name, { description, ...property }]) => ({
    name,
    in: "query",
    required: required.includes(name),
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

const sizeOf = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`;

/** The endpoint's own problems, with a body's 413 said from its limit unless it says it. */
function problemsOf(endpoint: Endpoint) {
  const said = endpoint.problems ?? {};
  const limit = endpoint.body?.limit ?? DEFAULT_BODY_LIMIT;
  return endpoint.body && !said[413] ? { ...said, 413: `Body over ${sizeOf(limit)}.` } : said;
}

function requestBody(endpoint: Endpoint) {
  const body = endpoint.body ?? endpoint.ownBody;
  if (!body) return {};
  return {
    requestBody: {
      required: !endpoint.body?.optional,
      ...(body.description ? { description: body.description } : {}),
      content: { "application/json": { schema: schemaOf(body.schema) } },
    },
  };
}

function operationOf(endpoint: Endpoint) {
  const access = accessOf(endpoint.access);
  const parameters = [
    ...pathParameters(endpoint),
    ...queryParameters(endpoint.query),
    ...(endpoint.parameters ?? []),
  ];
  return {
    operationId: endpoint.operationId,
    tags: [endpoint.tag],
    summary: endpoint.summary,
    ...(endpoint.description ? { description: endpoint.description } : {}),
    security: access.security,
    // What proves a caller that sends no credential (a signature, a secret in the URL, …).
    ...("public" in endpoint.access ? { "x-credential": endpoint.access.public } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...requestBody(endpoint),
    responses: Object.fromEntries(
      [
        ...Object.entries(endpoint.responses).map(([code, r]) => [code, reply(r)] as const),
        ...Object.entries(access.problems),
        ...Object.entries(problemsOf(endpoint)).map(([code, d]) => [code, problem(d)] as const),
      ].sort(([a], [b]) => Number(a) - Number(b)),
    ),
  };
}

type Operation = ReturnType<typeof operationOf>;

/** The document's `paths`, grouped by template; each method of a path declared once. */
export function pathsOf(endpoints: readonly Endpoint[]) {
  const paths: Record<string, Record<string, Operation>> = {};
  for (const endpoint of endpoints) {
    const item = paths[endpoint.path] ?? {};
    const method = endpoint.method.toLowerCase();
    if (item[method]) throw new Error(`${endpoint.method} ${endpoint.path} is declared twice`);
    item[method] = operationOf(endpoint);
    paths[endpoint.path] = item;
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
