import { z } from "zod";
import { InputSchema } from "./inputs";
import { StreamWebhooksSchema, WebhookUrlSchema } from "./webhook-subscription";

// The Crew Execution Service API's requests and small answers (kickoff, inputs, resume, stop);
// the status and the events a run answers with are in ./status.
export const META_LIMIT_BYTES = 16 * 1024;
export const KICKOFF_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * A callback URL at kickoff or resume, or none. CrewAI's clients send `null` for a callback they
 * were not given (Semantic Kernel's plugins, Python and .NET, always send all three) and some send
 * `""`: both mean "no callback", as they do on CrewAI.
 */
const CallbackUrlSchema = z
  .preprocess((v) => (v === null || v === "" ? undefined : v), WebhookUrlSchema.optional())
  .meta({
    type: ["string", "null"],
    format: "uri",
    description: "An http(s) URL to call back; null or an empty string mean none",
  });

export const InputValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()], {
  error: "input values must be a string, a number or a boolean",
});
// A json input also takes the JSON value itself; kickoff answers 400 for one anywhere else.
export const KickoffInputValueSchema = z.union(
  [InputValueSchema, z.array(z.unknown()), z.record(z.string(), z.unknown())],
  { error: "input values must be a string, a number or a boolean" },
);

export const CONCURRENCY_POLICIES = ["reject", "enqueue", "stop"] as const;

export const ConcurrencySchema = z
  .object({
    key: z
      .string({ error: "concurrency.key names what the run works on, e.g. an issue id" })
      .trim()
      .min(1, "concurrency.key names what the run works on, e.g. an issue id")
      .max(200, "concurrency.key must be at most 200 characters")
      .describe(
        "What the run works on (an issue id, a customer); scoped to the crew, and a personal token's to its owner's runs",
      ),
    policy: z
      .enum(CONCURRENCY_POLICIES, {
        error: 'concurrency.policy is "reject", "enqueue" or "stop"',
      })
      .default("enqueue")
      .describe(
        "While a run with the key is queued, running or awaiting review: refuse this one (409), run it after (default), or stop the earlier one",
      ),
  })
  .meta({ id: "Concurrency" });

export type Concurrency = z.infer<typeof ConcurrencySchema>;

export const KickoffRequestSchema = z
  .object({
    inputs: z
      .record(z.string(), KickoffInputValueSchema, {
        error: "inputs must be an object mapping input names to values",
      })
      .default({}),
    meta: z
      .record(z.string(), z.unknown(), { error: "meta must be a JSON object" })
      .refine((m) => Buffer.byteLength(JSON.stringify(m)) <= META_LIMIT_BYTES, {
        error: `meta must be at most ${META_LIMIT_BYTES} bytes of JSON`,
      })
      .optional(),
    taskWebhookUrl: CallbackUrlSchema,
    stepWebhookUrl: CallbackUrlSchema,
    crewWebhookUrl: CallbackUrlSchema,
    // null, as for the URLs, means none.
    webhooks: z.preprocess((v) => (v === null ? undefined : v), StreamWebhooksSchema.optional()),
    concurrency: z.preprocess(
      (v) => (v === null ? undefined : v),
      ConcurrencySchema.optional().describe(
        "A concurrency key and what to do while another run with it is active",
      ),
    ),
  })
  .meta({ id: "KickoffRequest" });

export const RerunRequestSchema = KickoffRequestSchema.extend({
  inputs: KickoffRequestSchema.shape.inputs.describe(
    "The inputs to change; every other input keeps the origin's value (checked as a kickoff's are)",
  ),
  models: z
    .record(z.string(), z.string().trim().min(1).max(200), {
      error:
        'models maps agent ids (or "*" for every agent) to models, e.g. {"writer": "openai/gpt-4o"}',
    })
    .refine((m) => Object.keys(m).length <= 100, { error: "at most 100 agents in models" })
    .optional()
    .describe(
      'Run some agents on other models: agent id (or "*" for all) → `provider/model` or `offline`. Local crews only; refused while LLM_OVERRIDE is set.',
    ),
}).meta({ id: "RerunRequest" });

export const ForkRequestSchema = KickoffRequestSchema.omit({ inputs: true })
  .extend({
    from_task: z
      .string({ error: "from_task names the task the fork starts at" })
      .trim()
      .min(1, "from_task names the task the fork starts at")
      .describe("The task the new run starts at: the ones before it are inherited"),
    edit: z
      .object({
        task_id: z.string().trim().min(1),
        output: z.string().max(1_000_000),
      })
      .optional()
      .describe("One inherited task's output, edited first (recorded in the ledger)"),
  })
  .meta({ id: "ForkRequest" });

export const RerunResponseSchema = z
  .object({ kickoff_id: z.uuid(), origin_id: z.uuid() })
  .meta({ id: "RerunResponse" });

export const RerunsResponseSchema = z
  .object({
    reruns: z.array(
      z.object({
        execution_id: z.uuid(),
        kind: z.enum(["rerun", "fork"]),
        status: z.string(),
        created_at: z.string(),
        started_by: z.string().nullable(),
        changed_inputs: z
          .array(z.string())
          .describe("The inputs whose value differs from the origin's"),
      }),
    ),
  })
  .meta({ id: "Reruns" });

export const KickoffResponseSchema = z
  .object({ kickoff_id: z.uuid() })
  .meta({ id: "KickoffResponse" });

export const InputsResponseSchema = z
  .object({
    inputs: z
      .array(z.string())
      .describe(
        "Names of the crew's inputs, in order (as CrewAI answers); `input_schema.required` says which must be given.",
      ),
    input_schema: InputSchema.describe(
      "The inputs as a JSON Schema object: type, title, description, default, examples, enum, format and `x-control` (the form control that suits it) per input; `required`; `x-order`. Inputs the crew does not type are required strings.",
    ),
  })
  .meta({ id: "InputsResponse" });

export const ResumeRequestSchema = z
  .object({
    execution_id: z.uuid({ error: "must be the kickoff_id (a UUID)" }),
    task_id: z.string({ error: "must be a string" }).min(1, "must not be empty"),
    human_feedback: z.string({ error: "must be a string" }),
    is_approve: z.boolean({ error: "must be true or false" }),
    edited_output: z
      .string({ error: "must be a string" })
      .max(1_000_000, "must be at most 1,000,000 characters")
      .optional()
      .describe(
        "Crewdeck's: approve this text instead of the agent's output (with is_approve: true). Later tasks get it as this task's output; the decision keeps both and their diff. A task with output_json takes JSON matching its schema.",
      ),
    review_response: z
      .record(z.string(), z.unknown(), { error: "must be an object" })
      .optional()
      .describe(
        "Crewdeck's: the reviewer's answers to the task's review.response_schema (a rating, a reason…), kept with the decision. Required when the task has one.",
      ),
    outcome: z
      .string({ error: "must be a string" })
      .min(1, "must not be empty")
      .max(200, "must be at most 200 characters")
      .optional()
      .describe(
        "Crewdeck's: for a flow's human feedback, the outcome to route to (one of the method's `emit`). Without it the feedback routes as in CrewAI: empty feedback takes default_outcome, feedback that names an outcome takes it, other text is read into one by the method's model.",
      ),
    call_id: z
      .string({ error: "must be a string" })
      .min(1, "must not be empty")
      .max(200, "must be at most 200 characters")
      .optional()
      .describe(
        "Crewdeck's: the tool call this decision is about, when the task waits for approval of tool calls (`pending_human_inputs[].tool_calls[].call_id`). Without it, the decision covers every call not decided yet. human_feedback is the reason a refused call's agent reads.",
      ),
    edited_arguments: z
      .record(z.string(), z.unknown(), { error: "must be an object" })
      .optional()
      .describe(
        "Crewdeck's: run the tool call with these arguments instead of the model's (with is_approve: true and one call). Checked against the tool's input_schema.",
      ),
    taskWebhookUrl: CallbackUrlSchema,
    stepWebhookUrl: CallbackUrlSchema,
    crewWebhookUrl: CallbackUrlSchema,
  })
  .meta({ id: "ResumeRequest" });

export const ResumeResponseSchema = z
  .object({
    status: z
      .enum(["resumed", "retrying", "completed", "approval_recorded", "waiting"])
      .describe(
        "resumed: the run goes on; retrying: the task runs again with the feedback; completed: that was the last task; approval_recorded: more approvals are needed (review.required_approvals); waiting: approved, and the run still awaits other reviews",
      ),
    message: z.string(),
    approvals: z
      .object({ count: z.number().int(), required: z.number().int() })
      .optional()
      .describe("Approvals of this review so far, and how many it needs"),
  })
  .meta({ id: "ResumeResponse" });

export const StopResponseSchema = z
  .object({ status: z.literal("stopped"), kickoff_id: z.uuid() })
  .meta({ id: "StopResponse" });

export type KickoffRequest = z.infer<typeof KickoffRequestSchema>;
export type ResumeRequest = z.infer<typeof ResumeRequestSchema>;
