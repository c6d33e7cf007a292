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
import { adminApi } from "./openapi/admin-api";
import { automationApi } from "./openapi/automation-api";
import { crewApi } from "./openapi/crew-api";
import { experimentsApi } from "./openapi/experiments-api";
import { integrationsApi } from "./openapi/integrations-api";
import { notificationsApi } from "./openapi/notifications-api";
import { JSON_SCHEMA_OPTIONS, pathsOf, sharedResponses } from "./openapi/operation";
import { buildPaths } from "./openapi/operations";
import { protocolsApi } from "./openapi/protocols-api";
import { rerunApi } from "./openapi/rerun-api";
import { runsApi } from "./openapi/runs-api";
import { toolsApi } from "./openapi/tools-api";
import { webhooksApi } from "./openapi/webhooks-api";

// Every route a program may call, by tag. Browser-only routes are left out (see BROWSER_ONLY).
const OPERATIONS = [
  ...crewApi,
  ...rerunApi,
  ...automationApi,
  ...experimentsApi,
  ...protocolsApi,
  ...runsApi,
  ...webhooksApi,
  ...integrationsApi,
  ...notificationsApi,
  ...toolsApi,
  ...adminApi,
];

/** Routes only a browser uses, left out of the document (and named in its description). */
export const BROWSER_ONLY = {
  "/api/auth/*": "next-auth's sign-in, sign-out, session and CSRF endpoints",
  "/api/integrations/linear/connect": "Connect Linear: a redirect to Linear's consent page",
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
    tags: [
      { name: "Crew API", description: "CrewAI's deployed-crew API, served per crew." },
      { name: "Runs", description: "Executions across crews, and saved views of them." },
      {
        name: "Schedules and triggers",
        description:
          "Runs that start themselves: on a cron in a time zone, or from a signed webhook.",
      },
      {
        name: "Experiments",
        description:
          "Datasets, variants of a crew, scored runs of both, and judges calibrated against reviewers.",
      },
      {
        name: "Agent protocols",
        description:
          "Every crew as an MCP tool, an A2A 1.0 agent and an AG-UI agent, with the same tokens, roles and reviews.",
      },
      { name: "Webhooks", description: "The delivery log, the signing secret and receivers." },
      {
        name: "Integrations",
        description: "Issue-tracker actions for agent runtimes, and their settings.",
      },
      {
        name: "Notifications",
        description: "E-mail (SMTP) and Slack notifications, and each person's preferences.",
      },
      {
        name: "Administration",
        description: "Deployments, tokens, people, prices, and agents' MCP servers.",
      },
      { name: "Service", description: "Liveness and this document." },
    ],
    components: { schemas: components, responses: sharedResponses, securitySchemes },
    webhooks: Object.fromEntries(
      (
        [
          [
            "step",
            "StepWebhook",
            "After each agent thought or action (to `stepWebhookUrl`). Per endpoint, in sequence order.",
          ],
          [
            "task",
            "TaskWebhook",
            "After each task completes, and when a task awaits review (`requires_review: true`) (to `taskWebhookUrl`).",
          ],
          [
            "crew",
            "CrewWebhook",
            "When the execution completes, fails or is stopped (to `crewWebhookUrl`).",
          ],
          [
            "stream",
            "StreamWebhook",
            "The events listed in the kickoff's `webhooks.events` (to `webhooks.url`, with `Authorization: Bearer <token>` when `authentication` is given): one per POST with `realtime: true`, otherwise batched (up to a second, and while an earlier batch is still being sent). Per endpoint, in sequence order; the subscription lasts the whole run.",
          ],
        ] as const
      ).map(([name, ref, description]) => [
        name,
        {
          post: {
            summary: `${name} event`,
            description: `${description}${name === "stream" ? "" : " URLs given at kickoff apply until the first pause for review; from each /resume on, only the URLs given in that resume."} Signed per Standard Webhooks: \`webhook-id\` (stable across retries: deduplicate on it), \`webhook-timestamp\`, \`webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">\`. Answer 2xx within 15 s; other answers are retried (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h); 410 stops the endpoint; 429/503 Retry-After is honoured; redirects are not followed.`,
            requestBody: {
              content: { "application/json": { schema: { $ref: `#/components/schemas/${ref}` } } },
            },
            responses: { 200: { description: "Received (any 2xx)." } },
          },
        },
      ]),
    ),
    paths: mergePaths(buildPaths(OPERATIONS), pathsOf(ENDPOINTS.filter((e) => !e.browserOnly))),
  };
}

// While the areas move to lib/api/endpoints: both tables, merged by path.
function mergePaths(...tables: Record<string, Record<string, unknown>>[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const table of tables)
    for (const [path, item] of Object.entries(table)) paths[path] = { ...paths[path], ...item };
  return paths;
}
