import { z } from "zod";

// What a run used and who started it: in a run's status and in each row of the runs list.
export const TokenUsageSchema = z
  .object({
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
    total_tokens: z.number().int(),
  })
  .meta({ id: "TokenUsage" });

export const StartedBySchema = z
  .object({
    via: z.enum(["dashboard", "api", "deployment", "schedule", "trigger", "experiment"]),
    name: z
      .string()
      .nullable()
      .describe(
        "The person's e-mail (dashboard), the token's label or prefix (api), the schedule's, trigger's or experiment's name",
      ),
    id: z.string().optional().describe("The schedule's, trigger's or experiment's id"),
  })
  .nullable()
  .describe("How the run was started; null for runs from before this was recorded")
  .meta({ id: "StartedBy" });

export type TokenUsage = z.infer<typeof TokenUsageSchema>;
export type StartedBy = z.infer<typeof StartedBySchema>;
