import { z } from "zod";
// Every area's schemas register in zod's global registry on import; some (the webhook bodies,
// Problem) are named only by reference, so each area is imported here.
import "@/lib/contract/crew";
import "@/lib/contract/webhook-subscription";
import "@/lib/contract/usage";
import "@/lib/contract/ledger";
import "@/lib/contract/problem";
import "@/lib/contract/status";
import "@/lib/contract/runs";
import "@/lib/contract/webhooks";
import "@/lib/contract/integrations";
import "@/lib/contract/admin";
import { ENDPOINTS } from "./endpoints";
import { TAGS } from "./endpoints/tags";
import { JSON_SCHEMA_OPTIONS, pathsOf, sharedResponses } from "./openapi/operation";
import { webhookOperations } from "./openapi/webhooks";

/**
 * Routes only a browser uses, left out of the document (and named in its description): our
 * endpoints that say so, and the routes that serve no endpoint of ours.
 */
export const BROWSER_ONLY: Record<string, string> = {
  "/api/auth/*": "next-auth's sign-in, sign-out, session and CSRF endpoints",
  ...Object.fromEntries(ENDPOINTS.flatMap((e) => (e.browserOnly ? [[e.path, e.browserOnly]] : []))),
  "/api/integrations/linear/callback": "where Linear sends the browser back after consent",
};

const DESCRIPTION = [
  "Crewdeck serves each crew over the Crew Execution Service API: give a CrewAI client the crew's base URL, `<origin>/api/crews/<crew>`: the Crew API operations below sit under it (`/kickoff`, `/status/{kickoff_id}`, …). The other operations manage runs, webhooks, integrations and access.",
  "Credentials: a bearer token (an organization token, or a person's user token that acts with its owner's role and sees only the executions it started), or the dashboard's session cookie; each operation lists who may call it. Errors are RFC 9457 problem details (`application/problem+json`). Other methods on a crew API path answer 405; unknown `/api` paths a 404 problem.",
  `Left out, because only the browser uses them: ${Object.entries(BROWSER_ONLY)
    .map(([path, why]) => `\`${path}\` (${why})`)
    .join("; ")}.`,
].join("\n\n");

const securitySchemes = {
  bearer: {
    type: "http",
    scheme: "bearer",
    description:
      "`Authorization: Bearer <token>`: an organization token (`CREW_TOKEN`, or one made in Settings) or a user token. In an operation's `security`, `org` stands for organization tokens and `user:<role>` for user tokens whose owner has that role.",
  },
  session: {
    type: "apiKey",
    in: "cookie",
    name: "authjs.session-token",
    description:
      "The dashboard's session cookie (`__Secure-authjs.session-token` over HTTPS), set by signing in. In an operation's `security`, the roles that may call it.",
  },
  integrationToken: {
    type: "http",
    scheme: "bearer",
    description:
      "An integration token (Settings → Integrations, or `SERVICE_PLATFORM_INTEGRATION_TOKEN`), for agent runtimes. A read token may run only the read actions.",
  },
  localAdmin: {
    type: "apiKey",
    in: "header",
    name: "x-crewdeck-local-admin",
    description:
      "The local admin secret in `DATA_DIR`: only `npm run token` on the server's machine has it.",
  },
};

/** The OpenAPI 3.1 document, generated from the same zod schemas the handlers validate with. */
export function openApiDocument() {
  // Every schema registered with `.meta({ id })` becomes a component; refs between them resolve.
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    ...JSON_SCHEMA_OPTIONS,
    uri: (id) => `#/components/schemas/${id}`,
  });
  const components = Object.fromEntries(
    Object.entries(schemas).map(([name, { $schema: _s, $id: _i, ...rest }]) => [name, rest]),
  );
  return {
    openapi: "3.1.0",
    info: { title: "Crewdeck API", version: "1.0.0", description: DESCRIPTION },
    servers: [{ url: "/", description: "This server" }],
    tags: TAGS,
    components: { schemas: components, responses: sharedResponses, securitySchemes },
    webhooks: webhookOperations(),
    paths: pathsOf(ENDPOINTS.filter((e) => !e.browserOnly)),
  };
}
