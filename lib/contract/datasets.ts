import { z } from "zod";
import { KickoffInputValueSchema } from "./crew";
import { crewNamedFields, editedFields, madeFields } from "./fields";

// Datasets (rows of a crew's inputs, each with what its tasks are expected to answer) and
// variants (a change to a crew kept as data): what experiments are made of (lib/experiments).
export const DATASET_MAX_ROWS = 1000;

const name = (what: string) =>
  z
    .string({ error: `name is required: what the ${what} is called` })
    .trim()
    .min(1, `name is required: what the ${what} is called`)
    .max(100, "name must be at most 100 characters");
const description = z
  .string({ error: "description must be a string" })
  .trim()
  .max(2000, "description must be at most 2000 characters")
  .optional();

const ExpectedSchema = z
  .record(
    z.string(),
    z.string({ error: "expected outputs are text, by task name" }).max(100_000, {
      error: "an expected output must be at most 100,000 characters",
    }),
    { error: "expected must be an object mapping task names to the output expected" },
  )
  .describe("Task name → the output a reviewer would accept");

const RowInSchema = z
  .object({
    inputs: z.record(z.string(), KickoffInputValueSchema, {
      error: "inputs must be an object mapping input names to values",
    }),
    expected: ExpectedSchema.default({}),
  })
  .meta({ id: "DatasetRowIn" });

export const RowsUploadSchema = z
  .object({
    rows: z
      .array(RowInSchema, { error: "rows must be a list of {inputs, expected}" })
      .min(1, "rows must hold at least one row")
      .max(DATASET_MAX_ROWS, `at most ${DATASET_MAX_ROWS} rows at once`),
    skip_invalid: z
      .boolean({ error: "skip_invalid is true or false" })
      .default(false)
      .describe("Keep the valid rows and report the others (default: add none if any is bad)"),
  })
  .meta({ id: "DatasetRowsUpload" });

export const DatasetCreateSchema = z
  .object({
    name: name("dataset"),
    description,
    rows: RowsUploadSchema.shape.rows.optional(),
  })
  .meta({ id: "DatasetCreate" });

export const RowSchema = z
  .object({
    position: z.number().int().describe("1, 2, … in the order rows were added"),
    inputs: z.record(z.string(), z.unknown()),
    expected: z.record(z.string(), z.string()),
    source_execution_id: z.string().nullable().describe("The run the row was collected out of"),
  })
  .meta({ id: "DatasetRow" });

export const DatasetSchema = z
  .object({
    ...crewNamedFields,
    description: z.string().nullable(),
    row_count: z.number().int(),
    ...editedFields,
  })
  .meta({ id: "Dataset" });

export const DatasetDetailSchema = DatasetSchema.extend({ rows: z.array(RowSchema) }).meta({
  id: "DatasetDetail",
});
export type Dataset = z.infer<typeof DatasetSchema>;
export type DatasetRow = z.infer<typeof RowSchema>;
export const DatasetsResponseSchema = z
  .object({ datasets: z.array(DatasetSchema) })
  .meta({ id: "DatasetList" });

export const RowErrorSchema = z
  .object({
    row: z.number().int().describe("1-based, in the upload"),
    line: z.number().int().optional().describe("The line of a CSV or JSON Lines upload"),
    path: z.string().describe("inputs.<name>, expected.<task>, or the row itself"),
    message: z.string(),
  })
  .meta({ id: "DatasetRowError" });

export const RowsAddedSchema = z
  .object({
    added: z.number().int(),
    positions: z.array(z.number().int()),
    skipped: z.array(RowErrorSchema).describe("With skip_invalid: the rows left out, and why"),
  })
  .meta({ id: "DatasetRowsAdded" });

export const CollectSchema = z
  .object({
    execution_ids: z
      .array(z.uuid({ error: "execution_ids are run ids (UUIDs)" }), {
        error: "execution_ids is a list of run ids",
      })
      .min(1, "execution_ids must name at least one run")
      .max(200, "at most 200 runs at once"),
  })
  .meta({ id: "DatasetCollect" });

// Variants: what may change, by agent id and task id as the crew's files name them.
const text = (field: string) =>
  z
    .string({ error: `${field} must be text` })
    .trim()
    .min(1, `${field} must not be empty`)
    .max(20_000);

const AgentChangeSchema = z
  .object({
    llm: z
      .string({ error: "llm is a model name, e.g. openai/gpt-4o-mini" })
      .trim()
      .min(1, "llm is a model name, e.g. openai/gpt-4o-mini")
      .optional(),
    role: text("role").optional(),
    goal: text("goal").optional(),
    backstory: text("backstory").optional(),
    tools: z
      .array(z.string().trim().min(1), { error: "tools are listed by name" })
      .max(50)
      .optional(),
  })
  .strict();

const TaskChangeSchema = z
  .object({
    description: text("description").optional(),
    expected_output: text("expected_output").optional(),
  })
  .strict();

export const VariantChangesSchema = z
  .object({
    agents: z.record(z.string(), AgentChangeSchema).optional(),
    tasks: z.record(z.string(), TaskChangeSchema).optional(),
    process: z
      .enum(["sequential", "hierarchical"], {
        error: 'process is "sequential" or "hierarchical"',
      })
      .optional(),
    manager_llm: z.string().trim().min(1).optional(),
  })
  .strict()
  .meta({ id: "VariantChanges" });

export type VariantChanges = z.infer<typeof VariantChangesSchema>;

export const VariantCreateSchema = z
  .object({ name: name("variant"), description, changes: VariantChangesSchema })
  .meta({ id: "VariantCreate" });

export const VariantSchema = z
  .object({
    ...crewNamedFields,
    description: z.string().nullable(),
    changes: VariantChangesSchema,
    definition_key: z
      .string()
      .describe("SHA-256 of the definition the changes made of the crew as it was when saved"),
    ...madeFields,
  })
  .meta({ id: "Variant" });

export type Variant = z.infer<typeof VariantSchema>;
export const VariantsResponseSchema = z
  .object({ variants: z.array(VariantSchema) })
  .meta({ id: "VariantList" });

/** A path's id: anything but a UUID names nothing (404). */
export const idParams = (what: string) =>
  z.object({ id: z.uuid({ error: (i) => `No ${what} '${String(i.input)}'.` }) });
