import { z } from "zod";
import { JudgeSchema } from "./experiments";
import { madeFields } from "./fields";

// A judge's calibration: the judge scores outputs reviewers already decided on, and its
// "would approve" (score ≥ pass_at) is compared with what they did (lib/experiments/calibration).
export const CalibrationCreateSchema = z
  .object({
    judge: JudgeSchema.omit({ type: true, name: true }).extend({
      type: z.literal("judge").default("judge"),
    }),
    limit: z
      .number()
      .int()
      .min(1)
      .max(500)
      .default(100)
      .describe("At most this many of the latest decisions are judged"),
  })
  .meta({ id: "CalibrationCreate" });

const CalibrationItemSchema = z.object({
  execution_id: z.string(),
  task_id: z.string(),
  attempt: z.number().int(),
  approved: z.boolean().describe("What the reviewer decided"),
  score: z.number().nullable(),
  predicted: z.boolean().nullable().describe("score ≥ pass_at; null if the judge failed"),
  reason: z.string(),
});

export const CalibrationSchema = z
  .object({
    id: z.uuid(),
    crew: z.string(),
    judge: z.record(z.string(), z.unknown()),
    judge_key: z.string().describe("Same judge (model, preset, rubric, pass_at, task): same key"),
    status: z.enum(["running", "completed", "failed"]),
    total: z.number().int().describe("Decisions to judge"),
    judged: z.number().int(),
    agreement: z.number().nullable().describe("Share of decisions the judge agreed with"),
    ci_low: z.number().nullable().describe("95% Wilson interval"),
    ci_high: z.number().nullable(),
    kappa: z.number().nullable().describe("Cohen's kappa: agreement beyond chance"),
    confusion: z.object({
      approve_approved: z.number().int(),
      approve_sent_back: z.number().int(),
      reject_approved: z.number().int(),
      reject_sent_back: z.number().int(),
    }),
    items: z.array(CalibrationItemSchema),
    error: z.string().nullable(),
    ...madeFields,
    finished_at: z.string().nullable(),
  })
  .meta({ id: "Calibration" });

export type Calibration = z.infer<typeof CalibrationSchema>;

export const CalibrationsResponseSchema = z
  .object({ calibrations: z.array(CalibrationSchema.omit({ items: true })) })
  .meta({ id: "CalibrationList" });
