// What the API reference page shows, read from the OpenAPI document alone (not from the operation
// specs), so the page and /api/openapi.json cannot disagree.

type Json = Record<string, unknown>;
type Ref = { $ref?: string };
type Media = Record<string, { schema?: Ref & Json }>;
type Response = Ref & { description?: string; content?: Media };
type Parameter = {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Json;
};
type Operation = {
  operationId: string;
  tags?: string[];
  summary: string;
  description?: string;
  security?: Record<string, string[]>[];
  "x-credential"?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; description?: string; content: Media };
  responses: Record<string, Response>;
};
export type OpenApiLike = {
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation | undefined>>;
  components: { responses?: Record<string, Response> };
};

export type SchemaUse = { name?: string; mediaType: string; inline?: string };
export type OperationView = {
  anchor: string;
  method: string;
  path: string;
  summary: string;
  description?: string;
  access: string[];
  parameters: { name: string; in: string; required: boolean; type: string; description?: string }[];
  body?: SchemaUse & { required: boolean; description?: string };
  responses: { code: string; description: string; schema?: SchemaUse }[];
};

const refName = (ref: string | undefined) => ref?.split("/").at(-1);

/** A JSON Schema in a few words: `string (uuid)`, `integer ≥ 0`, `one of a | b`. */
export function typeOf(schema: Json | undefined): string {
  if (!schema) return "any";
  if (typeof schema.$ref === "string") return refName(schema.$ref) ?? "any";
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.join(" | ")}`;
  const types = Array.isArray(schema.type) ? schema.type.join(" or ") : String(schema.type ?? "");
  const format = typeof schema.format === "string" ? ` (${schema.format})` : "";
  const branches = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (!types && branches) return branches.map(typeOf).join(" or ");
  return `${types || "any"}${format}`;
}

function schemaUse(content: Media | undefined): SchemaUse | undefined {
  const [mediaType, media] = Object.entries(content ?? {})[0] ?? [];
  if (!mediaType) return undefined;
  const name = refName(media?.schema?.$ref);
  return name ? { name, mediaType } : { mediaType, inline: typeOf(media?.schema) };
}

const ROLE_ORDER = ["viewer", "operator", "reviewer", "admin"];
const fromRole = (roles: string[]) => {
  const sorted = [...roles].sort((a, b) => ROLE_ORDER.indexOf(a) - ROLE_ORDER.indexOf(b));
  if (sorted.length === ROLE_ORDER.length) return "any role";
  return sorted.length === 1 ? `${sorted[0]} only` : `${sorted[0]} or above`;
};

/** Who may call, one line per way in: `Bearer token: organization; user token (operator or above)`. */
function accessOf(op: Operation): string[] {
  if (!op.security?.length)
    return [`No credential${op["x-credential"] ? `: ${op["x-credential"]}` : ""}`];
  return op.security.flatMap((requirement) =>
    Object.entries(requirement).map(([scheme, scopes]) => {
      if (scheme === "bearer") {
        const users = scopes.filter((s) => s.startsWith("user:")).map((s) => s.slice(5));
        return `Bearer token: ${[
          ...(scopes.includes("org") ? ["organization token"] : []),
          ...(users.length ? [`user token (${fromRole(users)})`] : []),
        ].join("; ")}`;
      }
      if (scheme === "session") return `Dashboard session: ${fromRole(scopes)}`;
      if (scheme === "integrationToken") return "Integration token";
      if (scheme === "localAdmin") return "Local admin secret (`x-crewdeck-local-admin`)";
      return scheme;
    }),
  );
}

function operationView(doc: OpenApiLike, path: string, method: string, op: Operation) {
  const shared = doc.components.responses ?? {};
  const view: OperationView = {
    anchor: op.operationId,
    method: method.toUpperCase(),
    path,
    summary: op.summary,
    description: op.description,
    access: accessOf(op),
    parameters: (op.parameters ?? []).map((p) => ({
      name: p.name,
      in: p.in,
      required: p.required ?? false,
      type: typeOf(p.schema),
      description: p.description,
    })),
    responses: Object.entries(op.responses).map(([code, r]) => {
      const response = r.$ref ? (shared[refName(r.$ref) ?? ""] ?? r) : r;
      return {
        code,
        description: response.description ?? "",
        schema: schemaUse(response.content),
      };
    }),
  };
  const body = op.requestBody && schemaUse(op.requestBody.content);
  if (op.requestBody && body)
    view.body = {
      ...body,
      required: op.requestBody.required ?? false,
      description: op.requestBody.description,
    };
  return view;
}

/** The document's operations grouped by tag, in the tags' order. */
export function referenceView(doc: OpenApiLike) {
  const byTag = new Map<string, OperationView[]>(
    (doc.tags ?? []).map((t) => [t.name, [] as OperationView[]]),
  );
  for (const [path, item] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(item)) {
      if (!op) continue;
      const tag = op.tags?.[0] ?? "Other";
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationView(doc, path, method, op)]);
    }
  return [...byTag]
    .filter(([, operations]) => operations.length)
    .map(([name, operations]) => ({
      name,
      anchor: `tag-${name.toLowerCase().replace(/\W+/g, "-")}`,
      description: doc.tags?.find((t) => t.name === name)?.description,
      operations,
    }));
}
