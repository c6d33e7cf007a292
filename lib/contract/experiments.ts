import { z } from "zod";
import { VariantChangesSchema } from "./datasets";
import { crewNamedFields, madeFields } from "./fields";

// Experiments: a dataset's rows run by variants of a crew, each N times, scored (lib/experiments).
const task = z
  .string()
  .trim()
  .min(1)
  .optional()
  .describe("The task whose output is scored, by id; absent: the run's final output");
const label = z
  .string()
  .trim()
  .min(1)
  .max(60)
  .regex(/^[\w.-]+$/, "a scorer's name is letters, digits, _ . -")
  .optional()
  .describe("The metric's name in the matrix; made from the type and task when absent");
const model = z
  .string({ error: "model is the judge's model, e.g. openai/gpt-4o-mini" })
  .trim()
  .min(1, "model is the judge's model, e.g. openai/gpt-4o-mini");

export const JudgeSchema = z
  .object({
    type: z.literal("judge"),
    name: label,
    task,
    model,
    preset: z
      .enum(["crewai"], { error: 'preset is "crewai"' })
      .optional()
      .describe("crewai: CrewAI's `crewai test` task evaluation, a 1–10 score"),
    rubric: z.string().trim().min(1).max(10_000).optional().describe("What a good answer is"),
    pass_at: z
      .number()
      .min(1)
      .max(10)
      .default(7)
      .describe("A score at or above this counts as 'would approve' (calibration)"),
  })
  .meta({ id: "JudgeScorer" });

export type JudgeSpec = z.infer<typeof JudgeSchema>;

const ScorerSchema = z
  .discriminatedUnion(
    "type",
    [
      z.object({ type: z.literal("contains"), name: label, task, value: z.string().min(1) }),
      z.object({
        type: z.literal("regex"),
        name: label,
        task,
        pattern: z
          .string()
          .min(1)
          .max(1000)
          .describe(
            "Run on RE2, in linear time: no backreferences or lookarounds (a 422 at create)",
          ),
        flags: z
          .string()
          .regex(/^[imsu]*$/, "flags are some of i, m, s, u")
          .optional(),
      }),
      z.object({
        type: z.literal("equals"),
        name: label,
        task,
        value: z.string().optional().describe("Absent: the row's expected output of the task"),
      }),
      z.object({
        type: z.literal("similarity"),
        name: label,
        task,
        description: z.string().optional(),
      }),
      z.object({
        type: z.literal("length"),
        name: label,
        task,
        unit: z.enum(["words", "characters"]).default("words"),
        min: z.number().int().min(0).optional(),
        max: z.number().int().min(0).optional(),
      }),
      z.object({ type: z.literal("json_schema"), name: label, task }),
      z.object({ type: z.literal("guardrail"), name: label, task }),
      JudgeSchema,
      z.object({
        type: z.literal("pairwise"),
        name: label,
        task,
        model,
        variants: z
          .tuple([z.string().min(1), z.string().min(1)], {
            error: "variants names the two variants compared",
          })
          .describe("The two variants compared; their order is randomised for each judgement"),
        criteria: z.string().trim().min(1).max(10_000).optional(),
      }),
    ],
    {
      error:
        "type is contains, regex, equals, similarity, length, json_schema, guardrail, judge or pairwise",
    },
  )
  .meta({ id: "Scorer" });

export type Scorer = z.infer<typeof ScorerSchema>;

const GateSchema = z
  .object({
    metric: z.string().min(1).describe("A metric's name in the matrix"),
    min: z.number().optional().describe("Every variant's mean must be at least this"),
    max: z.number().optional().describe("Every variant's mean must be at most this"),
    max_drop: z
      .number()
      .min(0)
      .optional()
      .describe(
        "No variant may be worse than the baseline by more than this (lower is better for latency, tokens and cost)",
      ),
  })
  .meta({ id: "ExperimentGate" });

const VariantRefSchema = z.union([
  z
    .string()
    .trim()
    .min(1)
    .describe('A saved variant\'s name or id, or "current": the crew as it is'),
  z.object({ name: z.string().trim().min(1).max(100), changes: VariantChangesSchema }),
]);

export const ExperimentCreateSchema = z
  .object({
    name: z
      .string({ error: "name is required" })
      .trim()
      .min(1, "name is required")
      .max(100, "name must be at most 100 characters"),
    dataset: z.string({ error: "dataset is a dataset's id or name" }).trim().min(1),
    variants: z
      .array(VariantRefSchema, { error: "variants lists the variants to compare" })
      .min(1, "variants must name at least one variant")
      .max(8, "at most 8 variants"),
    repeats: z.number().int().min(1).max(20).default(1),
    reviews: z
      .enum(["skip", "wait"], { error: 'reviews is "skip" or "wait"' })
      .default("skip")
      .describe(
        "skip: runs do not wait for task reviews or tool-call approvals (needs the reviewer role, since it does without one); wait: they wait, as any run does",
      ),
    parallelism: z.number().int().min(1).max(32).default(4),
    budget: z
      .object({
        max_tokens: z.number().int().min(1).optional(),
        max_cost_usd: z.number().positive().optional(),
      })
      .strict()
      .optional()
      .describe("The experiment stops, its unstarted runs skipped, once its runs used this much"),
    scorers: z.array(ScorerSchema).max(20).default([]),
    baseline: z.string().optional().describe("The variant the others are compared with (first)"),
    gates: z.array(GateSchema).max(20).default([]),
  })
  .meta({ id: "ExperimentCreate" });

export type ExperimentCreate = z.infer<typeof ExperimentCreateSchema>;

const EXPERIMENT_STATUSES = ["running", "completed", "stopped", "budget_reached"] as const;

const Stat = z.object({
  variant: z.string(),
  metric: z.string(),
  n: z.number().int().describe("Cells with a value"),
  mean: z.number().nullable(),
  sd: z.number().nullable().describe("Sample standard deviation"),
  ci_low: z.number().nullable().describe("95% interval of the mean (Student's t)"),
  ci_high: z.number().nullable(),
  delta: z.number().nullable().describe("mean − the baseline's mean"),
});

const MatrixSchema = z
  .object({
    metrics: z.array(
      z.object({
        name: z.string(),
        kind: z.enum(["rate", "score", "number"]),
        better: z.enum(["higher", "lower"]),
        calibration: z
          .object({
            id: z.uuid(),
            agreement: z.number(),
            ci_low: z.number(),
            ci_high: z.number(),
            n: z.number().int(),
          })
          .nullable()
          .optional()
          .describe("A judge's latest calibration; null: uncalibrated"),
        judge: z
          .record(z.string(), z.unknown())
          .optional()
          .describe("A judge metric's judge, as POST /calibrations takes it"),
      }),
    ),
    stats: z.array(Stat),
  })
  .meta({ id: "ExperimentMatrix" });

export const ExperimentSchema = z
  .object({
    ...crewNamedFields,
    dataset_id: z.string().nullable(),
    status: z.enum(EXPERIMENT_STATUSES),
    stop_reason: z.string().nullable(),
    ...madeFields,
    finished_at: z.string().nullable(),
    repeats: z.number().int(),
    reviews: z.enum(["skip", "wait"]),
    parallelism: z.number().int(),
    budget: z.object({ max_tokens: z.number().optional(), max_cost_usd: z.number().optional() }),
    baseline: z.string(),
    variants: z.array(
      z.object({
        name: z.string(),
        variant_id: z.string().nullable(),
        definition_key: z.string(),
        changes: z.record(z.string(), z.unknown()),
      }),
    ),
    scorers: z.array(z.record(z.string(), z.unknown())),
    progress: z.object({
      total: z.number().int(),
      pending: z.number().int(),
      running: z.number().int(),
      scored: z.number().int(),
      skipped: z.number().int(),
    }),
    usage: z.object({ total_tokens: z.number().int(), cost_usd: z.number().nullable() }),
    matrix: MatrixSchema,
    pairwise: z.array(
      z.object({
        metric: z.string(),
        a: z.string(),
        b: z.string(),
        n: z.number().int(),
        a_wins: z.number().int(),
        b_wins: z.number().int(),
        ties: z.number().int(),
        a_win_rate: z.number().nullable().describe("Ties count half"),
        ci_low: z.number().nullable().describe("95% Wilson interval"),
        ci_high: z.number().nullable(),
      }),
    ),
    gates: z.array(
      z.object({
        variant: z.string(),
        metric: z.string(),
        passed: z.boolean(),
        message: z.string(),
      }),
    ),
    passed: z.boolean().nullable().describe("Every gate held; null until the experiment ends"),
  })
  .meta({ id: "Experiment" });

export type Experiment = z.infer<typeof ExperimentSchema>;

export const ExperimentsResponseSchema = z
  .object({ experiments: z.array(ExperimentSchema.omit({ matrix: true, pairwise: true })) })
  .meta({ id: "ExperimentList" });
