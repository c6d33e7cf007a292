import { z } from "zod";

// Open reviews as a run's status shows them, the actions on one, and the inbox of them.
export const OpenReviewSchema = z
  .object({
    task_id: z.string(),
    output: z.string().describe("The text under review (an approver's edit replaces the agent's)"),
    attempt: z.number().int(),
    requested_at: z.string(),
    assignees: z
      .array(z.string())
      .describe("People (e-mail) and roles or teams who may decide; empty: anyone who may review"),
    required_approvals: z.number().int(),
    approvals: z.array(z.object({ reviewer: z.string(), at: z.string() })),
    claimed_by: z.string().nullable(),
    claimed_until: z.string().nullable(),
    deadline_at: z.string().nullable(),
    on_timeout: z.enum(["approve", "send_back", "stop", "escalate"]).nullable(),
    response_schema: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe("The form the reviewer fills in (review_response on /resume)"),
    feedback: z
      .object({
        message: z.string(),
        outcomes: z.array(z.string()),
        default_outcome: z.string().nullable(),
      })
      .nullable()
      .describe(
        "A flow's human feedback: what it asks, and the outcomes to choose among (`outcome` on /resume)",
      ),
    kind: z
      .enum(["output", "tool_call"])
      .describe("What waits: the task's output, or tool calls its agent asked to make"),
    tool_calls: z
      .array(
        z.object({
          call_id: z.string(),
          tool: z.string(),
          arguments: z.unknown().describe("Exactly what the model asked to run"),
          input_schema: z.record(z.string(), z.unknown()),
          source: z.enum(["builtin", "tracker", "mcp"]).nullable(),
          server: z.string().nullable().describe("The MCP server, for its tools"),
          writes: z.boolean().nullable(),
          decision: z
            .object({
              approved: z.boolean(),
              arguments: z.unknown(),
              edited: z.boolean(),
              reason: z.string(),
              reviewer: z.string(),
              at: z.string(),
            })
            .nullable(),
        }),
      )
      .nullable()
      .describe("The calls waiting for approval (kind tool_call), each decided on its own"),
  })
  .meta({ id: "OpenReview" });

export const ReviewActionSchema = z
  .discriminatedUnion(
    "action",
    [
      z.object({ action: z.literal("claim") }),
      z.object({ action: z.literal("release") }),
      z.object({
        action: z.literal("reassign"),
        assignees: z
          .array(z.string().trim().min(1).max(320), { error: "a list of e-mails, roles or teams" })
          .min(1, "name at least one person, role or team")
          .max(50),
      }),
    ],
    { error: "action is claim, release or reassign" },
  )
  .meta({ id: "ReviewAction" });

export const ReviewsQuerySchema = z.object({
  scope: z
    .enum(["mine", "team", "all"], { error: "scope is mine, team or all" })
    .default("all")
    .describe(
      "mine: named, claimed by you, or open to anyone who may review; team: given to a role or team you hold; all: every open review you may see",
    ),
  limit: z.coerce
    .number({ error: "limit is a whole number from 0 to 500" })
    .int("limit is a whole number from 0 to 500")
    .min(0, "limit is a whole number from 0 to 500")
    .max(500, "limit is a whole number from 0 to 500")
    .default(500)
    .describe("At most this many reviews (0: only the counts, as the nav's badge asks)"),
});

export const InboxReviewSchema = OpenReviewSchema.extend({
  execution_id: z.uuid(),
  crew: z.string(),
  task_name: z.string(),
  inputs: z
    .record(z.string(), z.unknown())
    .describe(
      'A preview of the run\'s inputs: the first 20 by key, each string (or object or list, as JSON text) cut to 200 characters, "…" marking a cut',
    ),
  started_by: z.string().nullable(),
  run_created_at: z.string(),
  remote: z.boolean().describe("A remote deployment's run: decided, not claimed or reassigned"),
  scope: z.object({ mine: z.boolean(), team: z.boolean() }),
  actionable: z
    .boolean()
    .describe(
      "The caller can decide it now: theirs or their team's, not yet voted on by them, not claimed by someone else",
    ),
}).meta({ id: "InboxReview" });

export const ReviewsResponseSchema = z
  .object({
    reviews: z.array(InboxReviewSchema),
    counts: z.object({
      mine: z.number().int(),
      team: z.number().int(),
      all: z.number().int(),
      actionable: z
        .number()
        .int()
        .describe("How many reviews are `actionable` (0 for a token or a viewer)"),
    }),
  })
  .meta({ id: "ReviewsResponse" });

export const AssigneeOptionsSchema = z
  .object({
    people: z.array(z.object({ email: z.string(), name: z.string().nullable(), role: z.string() })),
    roles: z.array(z.object({ name: z.string(), reviewers: z.number().int() })),
    teams: z.array(z.object({ name: z.string(), reviewers: z.number().int() })),
  })
  .meta({ id: "AssigneeOptions" });

export type ReviewAction = z.infer<typeof ReviewActionSchema>;
export type AssigneeOptions = z.infer<typeof AssigneeOptionsSchema>;
export type OpenReviewView = z.infer<typeof OpenReviewSchema>;
export type InboxReview = z.infer<typeof InboxReviewSchema>;
export type ReviewsResponse = z.infer<typeof ReviewsResponseSchema>;
