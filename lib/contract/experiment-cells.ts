import { z } from "zod";

// An experiment's cells: one run of one row by one variant, its outputs and its scores.
const ScoreSchema = z.object({
  value: z.number().nullable().describe("null: could not be scored (see reason)"),
  reason: z.string().optional(),
});

const CellSchema = z
  .object({
    n: z.number().int(),
    variant: z.string(),
    row: z.number().int(),
    repeat: z.number().int(),
    status: z.enum(["pending", "running", "scored", "skipped"]),
    execution_id: z.string().nullable(),
    inputs: z.record(z.string(), z.unknown()),
    expected: z.record(z.string(), z.string()),
    outputs: z.record(z.string(), z.string()).describe("Task id → output, and `result`"),
    scores: z.record(z.string(), ScoreSchema),
  })
  .meta({ id: "ExperimentCell" });

export type ExperimentCell = z.infer<typeof CellSchema>;
export const CellsResponseSchema = z
  .object({ cells: z.array(CellSchema) })
  .meta({ id: "ExperimentCells" });

export const CellsQuerySchema = z.object({
  variant: z.string().optional(),
  row: z.coerce.number().int().min(1).optional(),
});
