import { Ajv } from "ajv";

// The response schemas of CrewAI's published OpenAPI for the deployed-crew API
// (docs/edge/enterprise-api.en.yaml in crewAIInc/crewAI, OpenAPI 3.0.3), transcribed as JSON
// Schema: descriptions and examples left out, every constraint kept as written.
const TaskResult = {
  type: "object",
  properties: {
    task_id: { type: "string" },
    output: { type: "string" },
    agent: { type: "string" },
    execution_time: { type: "number" },
  },
};

export const PUBLISHED = {
  inputs: {
    type: "object",
    properties: { inputs: { type: "array", items: { type: "string" } } },
  },
  kickoff: {
    type: "object",
    properties: { kickoff_id: { type: "string", format: "uuid" } },
  },
  status: {
    oneOf: [
      {
        type: "object",
        properties: {
          status: { type: "string", enum: ["running"] },
          current_task: { type: "string" },
          progress: {
            type: "object",
            properties: {
              completed_tasks: { type: "integer" },
              total_tasks: { type: "integer" },
            },
          },
        },
      },
      {
        type: "object",
        properties: {
          status: { type: "string", enum: ["completed"] },
          result: {
            type: "object",
            properties: {
              output: { type: "string" },
              tasks: { type: "array", items: TaskResult },
            },
          },
          execution_time: { type: "number" },
        },
      },
      {
        type: "object",
        properties: {
          status: { type: "string", enum: ["error"] },
          error: { type: "string" },
          execution_time: { type: "number" },
        },
      },
    ],
  },
  resume: {
    type: "object",
    properties: {
      status: { type: "string", enum: ["resumed", "retrying", "completed"] },
      message: { type: "string" },
    },
  },
  error: {
    type: "object",
    properties: { error: { type: "string" }, message: { type: "string" } },
  },
  validationError: {
    type: "object",
    properties: {
      error: { type: "string" },
      message: { type: "string" },
      details: {
        type: "object",
        properties: { missing_inputs: { type: "array", items: { type: "string" } } },
      },
    },
  },
} as const;

const ajv = new Ajv({ allErrors: true, strict: true });
ajv.addFormat("uuid", /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);

/** The schema's errors for `body` (an empty list when it conforms). */
export function publishedSchemaErrors(name: keyof typeof PUBLISHED, body: unknown): string[] {
  const validate = ajv.compile(PUBLISHED[name]);
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || "(body)"} ${e.message}`);
}
