import { z } from "zod";

// What a kickoff subscribes to: callback URLs and CrewAI AMP's webhook streaming. Apart from the
// delivery log, so the crew API's contract does not load every webhook shape.
export const WebhookUrlSchema = z
  .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
  .max(2048, "must be at most 2048 characters");

/** The event names a kickoff's `webhooks.events` may list, in CrewAI's spelling. */
export const STREAM_EVENT_NAMES = [
  "crew_kickoff_started",
  "crew_kickoff_completed",
  "crew_kickoff_failed",
  "task_started",
  "task_completed",
  "task_failed",
  "llm_call_completed",
  "tool_usage_started",
  "tool_usage_finished",
  "tool_usage_error",
  "human_feedback_requested",
  "human_feedback_received",
] as const;

const EVENT_LIST = STREAM_EVENT_NAMES.join(", ");

/**
 * CrewAI AMP's webhook streaming: the listed events of the run, POSTed to `url` as
 * `{"events": [...]}`; `realtime` sends each at once, otherwise they are batched.
 */
export const StreamWebhooksSchema = z
  .object(
    {
      events: z
        .array(z.string({ error: "each event must be a string" }), {
          error: "must be a list of event names",
        })
        .min(1, `must list at least one event (valid events: ${EVENT_LIST})`)
        .superRefine((names, ctx) => {
          const valid: readonly string[] = STREAM_EVENT_NAMES;
          const unknown = [...new Set(names.filter((n) => !valid.includes(n)))];
          if (unknown.length)
            ctx.addIssue({
              code: "custom",
              message: `unknown event ${unknown.map((n) => `'${n}'`).join(", ")}; valid events: ${EVENT_LIST}`,
            });
        })
        .meta({ items: { type: "string", enum: [...STREAM_EVENT_NAMES] } }),
      url: WebhookUrlSchema,
      realtime: z
        .boolean({ error: "must be true or false" })
        .default(false)
        .describe(
          "true: one POST per event, as it happens; false: events batched (up to a second) into fewer POSTs",
        ),
      authentication: z
        .object(
          {
            strategy: z.literal("bearer", {
              error: 'must be "bearer" (the only strategy supported)',
            }),
            token: z
              .string({ error: "must be a string" })
              .min(1, "must not be empty")
              .max(4096, "must be at most 4096 characters"),
          },
          { error: "must be an object with strategy and token" },
        )
        .optional()
        .describe("Sent as `Authorization: Bearer <token>` with every POST"),
    },
    { error: "must be an object with events, url, realtime and authentication" },
  )
  .meta({ id: "StreamWebhooks" });
export type StreamWebhooks = z.infer<typeof StreamWebhooksSchema>;
