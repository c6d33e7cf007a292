import { z } from "zod";
import "./schemas"; // registers the schemas below in zod's global registry

const problem = (description: string) => ({
  description,
  content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
});
const ok = (ref: string, description = "OK") => ({
  description,
  content: { "application/json": { schema: { $ref: `#/components/schemas/${ref}` } } },
});
const crewParam = {
  name: "crew",
  in: "path",
  required: true,
  schema: { type: "string" },
  description: "The crew's slug (its folder name).",
};
const idParam = {
  name: "kickoff_id",
  in: "path",
  required: true,
  schema: { type: "string", format: "uuid" },
};
const auth = {
  401: problem("Missing, malformed, unknown or revoked token (with `WWW-Authenticate: Bearer`)."),
};

/** The OpenAPI 3.1 document, generated from the same zod schemas the handlers validate with. */
export function openApiDocument() {
  // Every schema registered with `.meta({ id })` becomes a component; refs between them resolve.
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    target: "draft-2020-12",
    io: "input",
    unrepresentable: "any",
    uri: (id) => `#/components/schemas/${id}`,
  });
  const components = Object.fromEntries(
    Object.entries(schemas).map(([name, { $schema: _s, $id: _i, ...rest }]) => [name, rest]),
  );
  return {
    openapi: "3.1.0",
    info: {
      title: "Crewdeck — Crew Execution Service API",
      version: "1.0.0",
      description:
        "Each crew is served at `/api/crews/{crew}`. Every endpoint needs `Authorization: Bearer <token>` (an organization token, or a user token that sees only its own executions). Errors are RFC 9457 problem details.",
    },
    servers: [{ url: "/api/crews/{crew}", variables: { crew: { default: "research-brief" } } }],
    security: [{ bearer: [] }],
    components: {
      schemas: components,
      securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
    },
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
        ] as const
      ).map(([name, ref, description]) => [
        name,
        {
          post: {
            summary: `${name} event`,
            description: `${description} URLs given at kickoff apply until the first pause for review; from each /resume on, only the URLs given in that resume. Signed per Standard Webhooks: \`webhook-id\` (stable across retries: deduplicate on it), \`webhook-timestamp\`, \`webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">\`. Answer 2xx within 15 s; other answers are retried (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h); 410 stops the endpoint; 429/503 Retry-After is honoured; redirects are not followed.`,
            requestBody: {
              content: { "application/json": { schema: { $ref: `#/components/schemas/${ref}` } } },
            },
            responses: { 200: { description: "Received (any 2xx)." } },
          },
        },
      ]),
    ),
    paths: {
      "/": {
        get: {
          summary: "Health check",
          operationId: "health",
          parameters: [crewParam],
          responses: {
            200: {
              description: "The crew is healthy.",
              content: { "text/plain": { schema: { type: "string", example: "Healthy" } } },
            },
            ...auth,
            404: problem("No such crew."),
          },
        },
      },
      "/inputs": {
        get: {
          summary: "The inputs the crew requires",
          description:
            "`inputs` lists the names, as CrewAI does. `input_schema` describes them as JSON Schema for building a form: a crew may type its inputs (string, text, number, boolean, enum, date, json) with a description, default and example in its YAML; inputs it does not type are required strings.",
          operationId: "inputs",
          parameters: [crewParam],
          responses: { 200: ok("InputsResponse"), ...auth, 404: problem("No such crew.") },
        },
      },
      "/kickoff": {
        post: {
          summary: "Start an execution",
          description:
            'Queues an execution and answers at once with its `kickoff_id`; poll `/status/{kickoff_id}`. Unknown inputs are ignored. Typed inputs (see `/inputs`) are checked and converted: numbers and booleans may be sent as strings (`"42"`, `"true"`), dates as `YYYY-MM-DD`, enums must be one of their options, json inputs take JSON text or the value itself (stored as JSON text); a missing optional input takes its default.',
          operationId: "kickoff",
          parameters: [crewParam],
          requestBody: {
            required: true,
            content: {
              "application/json": { schema: { $ref: "#/components/schemas/KickoffRequest" } },
            },
          },
          responses: {
            200: ok("KickoffResponse"),
            400: problem(
              "Malformed JSON, not an object, wrong value types, meta over 16 KiB, or a webhook URL that is invalid or may not be called (private, loopback, …: see `errors`).",
            ),
            ...auth,
            404: problem("No such crew."),
            413: problem("Body over 1 MiB."),
            422: problem(
              'Required inputs missing (absent, null or empty), listed in `missing_inputs`; and/or typed inputs with a wrong value, each in `errors` as `{path: "inputs.<name>", message}`.',
            ),
          },
        },
      },
      "/status/{kickoff_id}": {
        get: {
          summary: "Execution status, task progress and outputs so far",
          operationId: "status",
          parameters: [crewParam, idParam],
          responses: {
            200: ok("ExecutionStatus"),
            ...auth,
            404: problem("Unknown execution, not a UUID, or not visible to this token."),
          },
        },
      },
      "/stop/{kickoff_id}": {
        post: {
          summary: "Stop a queued, running or paused execution",
          operationId: "stop",
          parameters: [crewParam, idParam],
          responses: {
            200: ok("StopResponse"),
            ...auth,
            404: problem("Unknown execution."),
            409: problem("The execution has already finished."),
          },
        },
      },
      "/resume": {
        post: {
          summary: "Approve a task awaiting review, or send it back with feedback",
          operationId: "resume",
          parameters: [crewParam],
          requestBody: {
            required: true,
            content: {
              "application/json": { schema: { $ref: "#/components/schemas/ResumeRequest" } },
            },
          },
          responses: {
            200: ok("ResumeResponse"),
            400: problem("Malformed JSON, or a webhook URL that may not be called."),
            ...auth,
            404: problem("Unknown execution."),
            409: problem("The execution is not awaiting review, or another task awaits it."),
            422: problem(
              "A required field is missing or has the wrong type (`missing_fields`, `errors`).",
            ),
          },
        },
      },
      "/executions/{kickoff_id}/events": {
        get: {
          summary: "The execution's event log",
          description:
            "Events with a sequence number above `after`, oldest first; the sequence has no gaps.",
          operationId: "events",
          parameters: [
            crewParam,
            idParam,
            { name: "after", in: "query", schema: { type: "integer", minimum: 0, default: 0 } },
            {
              name: "limit",
              in: "query",
              schema: { type: "integer", minimum: 1, maximum: 1000, default: 500 },
            },
          ],
          responses: {
            200: ok("ExecutionEvents"),
            400: problem("Invalid query."),
            ...auth,
            404: problem("Unknown execution."),
          },
        },
      },
      "/executions/{kickoff_id}/artifacts": {
        get: {
          summary: "The execution's files",
          description: "The outputs of tasks with `output_file`, one per name, kept with the run.",
          operationId: "artifacts",
          parameters: [crewParam, idParam],
          responses: { 200: ok("ExecutionArtifacts"), ...auth, 404: problem("Unknown execution.") },
        },
      },
      "/executions/{kickoff_id}/artifacts/{name}": {
        get: {
          summary: "Download one file",
          description:
            "The file as an attachment, with its content type. `name` may contain `/` (folders).",
          operationId: "artifact",
          parameters: [
            crewParam,
            idParam,
            { name: "name", in: "path", required: true, schema: { type: "string" } },
          ],
          responses: {
            200: { description: "The file (Content-Disposition: attachment)." },
            ...auth,
            404: problem("Unknown execution, or no file of that name."),
          },
        },
      },
    },
  };
}
