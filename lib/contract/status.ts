import { z } from "zod";
import { OpenReviewSchema } from "./reviews";
import { CREWAI_STATES, EXECUTION_STATUSES, TASK_STATUSES } from "./states";
import { StartedBySchema, TokenUsageSchema } from "./usage";

// One run as the API answers for it: its status (CrewAI's /status and more), events and artifacts.
export const StepSchema = z
  .object({
    type: z.enum(["thought", "tool_call", "tool_result", "answer"]),
    task_id: z.string(),
    agent: z.string(),
    attempt: z.number().int(),
    text: z.string().optional(),
    tool: z.string().optional(),
    tool_input: z.unknown().optional(),
    result: z.unknown().optional(),
    model: z.string().optional().describe("The model the agent ran on"),
    usage: z
      .object({ input_tokens: z.number(), output_tokens: z.number() })
      .optional()
      .describe("Tokens of the LLM call this step ends (on its answer or last tool call)"),
    at: z.string(),
  })
  .meta({ id: "Step" });

export const CostSchema = z
  .object({
    usd: z
      .number()
      .nullable()
      .describe("Estimated cost in US dollars; null when no model used has a known price"),
    estimated: z.literal(true),
    models: z.array(z.string()).describe("The models the run used"),
    unpriced_models: z.array(z.string()).describe("Models used that have no known price"),
  })
  .meta({ id: "Cost" });

export const RunTimingSchema = z
  .object({
    working_seconds: z
      .number()
      .nullable()
      .describe("Execution time minus the time spent awaiting review; null before it starts"),
    review_wait_seconds: z.number().describe("Seconds spent awaiting review, all reviews"),
  })
  .meta({ id: "RunTiming" });

export const TaskStatusSchema = z
  .object({
    task_id: z.string(),
    name: z.string(),
    agent: z.string(),
    status: z.enum(TASK_STATUSES),
    attempts: z.number().int(),
    output: z.string().nullable(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    execution_time: z.number().nullable().describe("Seconds"),
    token_usage: TokenUsageSchema.describe("Tokens this task used, over all its attempts"),
    edited_by: z
      .string()
      .nullable()
      .optional()
      .describe("Approved with an edit: who edited it (`output` is their text)"),
    agent_output: z
      .string()
      .nullable()
      .optional()
      .describe("Approved with an edit: the agent's own output, before the edit"),
  })
  .meta({ id: "TaskStatus" });

export const CrewOutputSchema = z
  .object({
    output: z.string().describe("The final output (the last task's)"),
    tasks: z.array(
      z.object({
        task_id: z.string(),
        output: z.string(),
        agent: z.string(),
        execution_time: z.number().nullable().describe("Seconds"),
      }),
    ),
  })
  .meta({ id: "CrewOutput" });

const FlowStatusSchema = z
  .object({
    current: z
      .object({
        method: z.string(),
        nested_run: z
          .string()
          .nullable()
          .describe("The run of the crew or agent it waits for (its own /status)"),
        awaiting_feedback: z.boolean(),
      })
      .nullable()
      .describe("The method running, or waiting for a nested run or for feedback"),
    path: z
      .array(
        z.object({
          method: z.string(),
          outcome: z.string().nullable().describe("A router's, or a reviewer's, outcome"),
          feedback: z.string().nullable(),
          nested_runs: z.array(z.string()),
          started_at: z.string(),
          finished_at: z.string(),
        }),
      )
      .describe("Every method that ran, in the order they ended: the branch the flow took"),
    queued: z.array(z.string()).describe("Methods set off, not started yet"),
    state: z.record(z.string(), z.unknown()).describe("The flow's state"),
  })
  .meta({ id: "FlowStatus" });

export const StatusResponseSchema = z
  .object({
    kickoff_id: z.uuid(),
    crew: z.string(),
    status: z.enum(EXECUTION_STATUSES),
    state: z
      .enum(CREWAI_STATES)
      .describe(
        "CrewAI's state, in the values CrewAI clients parse: PENDING (queued), RUNNING (running or awaiting review), SUCCESS, FAILED (failed or stopped). `status` has the precise word.",
      ),
    current_task: z.string().nullable(),
    in_progress: z.array(z.string()),
    progress: z.object({ completed_tasks: z.number().int(), total_tasks: z.number().int() }),
    tasks: z.array(TaskStatusSchema),
    pending_human_input: z
      .object({
        task_id: z.string(),
        output: z.string(),
        attempt: z.number().int(),
        requested_at: z.string(),
      })
      .nullable()
      .describe("The first open review (in task order): what clients that know one review read"),
    pending_human_inputs: z
      .array(OpenReviewSchema)
      .describe(
        "Every open review: several when tasks running in parallel each await review. Resume each by its task_id.",
      ),
    last_step: StepSchema.nullable(),
    result: z
      .string()
      .nullable()
      .describe(
        "The final output as text (what CrewAI clients read); on a failed or stopped run, why it ended",
      ),
    crew_output: CrewOutputSchema.nullable().describe(
      "CrewAI's structured result ({output, tasks}) once the run has completed; null before",
    ),
    error: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    execution_time: z.number().nullable().describe("Seconds from start to finish (or to now)"),
    token_usage: TokenUsageSchema.describe("Tokens the whole run used"),
    cost: CostSchema,
    timing: RunTimingSchema,
    inputs: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))
      .describe("The kickoff's inputs, in the crew's input order"),
    meta: z.record(z.string(), z.unknown()).describe("The `meta` object given at kickoff"),
    started_by: StartedBySchema,
    stopped_by: z.string().nullable().describe("Who stopped the run, if it was stopped"),
    stopped_at: z.string().nullable(),
    flow: FlowStatusSchema.nullable().describe(
      "A CrewAI Flow's run: where it stands. Its methods are `tasks`; a nested crew's review is in `pending_human_inputs`, resumed on this execution by its task_id.",
    ),
    parent_execution_id: z
      .string()
      .nullable()
      .describe("A run a flow's method started: the flow's execution"),
    origin: z
      .object({ execution_id: z.string(), kind: z.enum(["rerun", "fork"]) })
      .nullable()
      .describe(
        "The run this one was started again from (POST …/executions/{id}/rerun); its re-runs are listed at …/executions/{id}/reruns",
      ),
  })
  .meta({ id: "ExecutionStatus" });

export const EventSchema = z
  .object({
    seq: z.number().int(),
    type: z.string(),
    task_id: z.string().nullable(),
    attempt: z.number().int().nullable(),
    data: z.record(z.string(), z.unknown()),
    created_at: z.string(),
  })
  .meta({ id: "ExecutionEvent" });

export const EventsQuerySchema = z.object({
  after: z.coerce
    .number({ error: "after must be a number" })
    .int("after must be an integer")
    .min(0)
    .default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(500),
});

export const EventsResponseSchema = z
  .object({ events: z.array(EventSchema), last_seq: z.number().int(), has_more: z.boolean() })
  .meta({ id: "ExecutionEvents" });

export const ArtifactSchema = z
  .object({
    name: z.string().describe("The task's output_file, its {inputs} filled in"),
    task_id: z.string(),
    content_type: z.string(),
    bytes: z.number().int(),
    created_at: z.string(),
    download_url: z.string().describe("Where to download it (same authorization as /status)"),
  })
  .meta({ id: "Artifact" });

export const ArtifactsResponseSchema = z
  .object({ artifacts: z.array(ArtifactSchema) })
  .meta({ id: "ExecutionArtifacts" });

export type Artifact = z.infer<typeof ArtifactSchema>;

export type StatusResponse = z.infer<typeof StatusResponseSchema>;
export type Cost = z.infer<typeof CostSchema>;
export type ExecutionEvent = z.infer<typeof EventSchema>;
