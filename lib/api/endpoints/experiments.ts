import { z } from "zod";
import {
  CollectSchema,
  DatasetCreateSchema,
  DatasetDetailSchema,
  DatasetSchema,
  DatasetsResponseSchema,
  RowsAddedSchema,
  RowsUploadSchema,
  VariantCreateSchema,
  VariantSchema,
  VariantsResponseSchema,
} from "@/lib/contract/datasets";
import { CellsQuerySchema, CellsResponseSchema } from "@/lib/contract/experiment-cells";
import {
  ExperimentCreateSchema,
  ExperimentSchema,
  ExperimentsResponseSchema,
} from "@/lib/contract/experiments";
import { endpoint } from "./endpoint";
import { uuidId } from "./path-params";
import { BASE, malformed, noCrew, read, start } from "./shared";

// Experiments: datasets of inputs (with the outputs reviewers approved), variants of a crew kept
// as data, runs of every row by every variant N times, scored by checks and judges.
const tag = "Experiments";
// Ids are UUIDs: anything else names nothing (404), before the store is asked.
const dataset = { id: uuidId("dataset") };
const variant = { id: uuidId("variant") };
const experiment = { id: uuidId("experiment") };
const noRow = "No such row.";

export const listDatasets = endpoint({
  method: "GET",
  path: `${BASE}/datasets`,
  operationId: "listDatasets",
  tag,
  summary: "The crew's datasets",
  access: read,
  responses: { 200: { description: "Newest first.", schema: DatasetsResponseSchema } },
  problems: noCrew,
});

export const createDataset = endpoint({
  method: "POST",
  path: `${BASE}/datasets`,
  operationId: "createDataset",
  tag,
  summary: "Create a dataset, optionally with its first rows",
  description:
    "Rows are checked against the crew's inputs as a kickoff's are; one bad row creates nothing (`errors` lists each row, field and reason).",
  access: start,
  body: { schema: DatasetCreateSchema },
  responses: { 201: { description: "Created.", schema: DatasetSchema } },
  problems: {
    400: malformed,
    ...noCrew,
    409: "A dataset of that name exists.",
    422: "A row does not fit the crew.",
  },
});

export const getDataset = endpoint({
  method: "GET",
  path: `${BASE}/datasets/{id}`,
  operationId: "getDataset",
  tag,
  summary: "A dataset with its rows",
  access: read,
  params: dataset,
  responses: { 200: { description: "OK", schema: DatasetDetailSchema } },
  problems: { 404: "No such crew or dataset." },
});

export const deleteDataset = endpoint({
  method: "DELETE",
  path: `${BASE}/datasets/{id}`,
  operationId: "deleteDataset",
  tag,
  summary: "Delete a dataset (experiments keep their copies of its rows)",
  access: start,
  params: dataset,
  responses: { 204: { description: "Deleted." } },
  problems: { 404: "No such crew or dataset." },
});

export const addDatasetRows = endpoint({
  method: "POST",
  path: `${BASE}/datasets/{id}/rows`,
  operationId: "addDatasetRows",
  tag,
  summary: "Add rows: JSON, CSV or JSON Lines",
  description:
    "`application/json`: `{rows: [{inputs, expected}], skip_invalid}`. `text/csv`: a header of input names, and `expected.<task>` columns. `application/jsonl` (or `application/x-ndjson`): one `{inputs, expected}` per line. With `skip_invalid` (`?skip_invalid=true` for CSV and JSON Lines) the valid rows are added and the others reported; otherwise one bad row adds none. Up to 1,000 rows per dataset, 5 MiB per upload.",
  access: start,
  params: dataset,
  // Read by the handler by its content type (lib/experiments/add-rows.ts), up to 5 MiB.
  ownBody: { schema: RowsUploadSchema },
  responses: { 201: { description: "Added.", schema: RowsAddedSchema } },
  problems: {
    400: "Malformed JSON, CSV or JSON Lines (the line is named).",
    404: "No such crew or dataset.",
    413: "Over 5 MiB.",
    422: "A row does not fit the crew (`errors`: row, line, field, reason), or the dataset would pass 1,000 rows.",
  },
});

export const deleteDatasetRow = endpoint({
  method: "DELETE",
  path: `${BASE}/datasets/{id}/rows/{position}`,
  operationId: "deleteDatasetRow",
  tag,
  summary: "Delete one row",
  access: start,
  params: {
    ...dataset,
    position: z.coerce
      .number({ error: noRow })
      .int(noRow)
      .min(1, noRow)
      .describe("The row's position."),
  },
  responses: { 204: { description: "Deleted." } },
  problems: { 404: "No such crew, dataset or row." },
});

export const collectDatasetRows = endpoint({
  method: "POST",
  path: `${BASE}/datasets/{id}/collect`,
  operationId: "collectDatasetRows",
  tag,
  summary: "Add rows from past runs, with reviewers' approved outputs as expected",
  description:
    "Each run gives a row: its inputs, and for each task a reviewer approved, the approved output (the reviewer's edit when they edited it). A task nobody approved has no expected output.",
  access: start,
  params: dataset,
  body: { schema: CollectSchema },
  responses: { 201: { description: "Added.", schema: RowsAddedSchema } },
  problems: {
    400: malformed,
    404: "No such crew or dataset.",
    422: "A run is not this crew's (or not yours), or its inputs no longer fit the crew.",
  },
});

export const listVariants = endpoint({
  method: "GET",
  path: `${BASE}/variants`,
  operationId: "listVariants",
  tag,
  summary: "The crew's saved variants",
  access: read,
  responses: { 200: { description: "Oldest first.", schema: VariantsResponseSchema } },
  problems: noCrew,
});

export const createVariant = endpoint({
  method: "POST",
  path: `${BASE}/variants`,
  operationId: "createVariant",
  tag,
  summary: "Save a variant: changes laid over the crew, never an edit of its files",
  description:
    "`changes` may set an agent's `llm`, `role`, `goal`, `backstory` or `tools`, a task's `description` or `expected_output`, and the `process` (with `manager_llm`). Agents and tasks are named by their ids in the crew's files. Saved with the SHA-256 of the definition the changes make.",
  access: start,
  body: { schema: VariantCreateSchema },
  responses: { 201: { description: "Saved.", schema: VariantSchema } },
  problems: {
    400: malformed,
    ...noCrew,
    409: "A variant of that name exists.",
    422: "A change names an agent, task or tool the crew does not have (`errors`).",
  },
});

export const getVariant = endpoint({
  method: "GET",
  path: `${BASE}/variants/{id}`,
  operationId: "getVariant",
  tag,
  summary: "One saved variant",
  access: read,
  params: variant,
  responses: { 200: { description: "OK", schema: VariantSchema } },
  problems: { 404: "No such crew or variant." },
});

export const deleteVariant = endpoint({
  method: "DELETE",
  path: `${BASE}/variants/{id}`,
  operationId: "deleteVariant",
  tag,
  summary: "Delete a saved variant (experiments keep the definition they pinned)",
  access: start,
  params: variant,
  responses: { 204: { description: "Deleted." } },
  problems: { 404: "No such crew or variant." },
});

export const listExperiments = endpoint({
  method: "GET",
  path: `${BASE}/experiments`,
  operationId: "listExperiments",
  tag,
  summary: "The crew's experiments",
  access: read,
  responses: { 200: { description: "Newest first.", schema: ExperimentsResponseSchema } },
  problems: noCrew,
});

export const createExperiment = endpoint({
  method: "POST",
  path: `${BASE}/experiments`,
  operationId: "createExperiment",
  tag,
  summary: "Run a dataset through variants of the crew, N times each, and score every run",
  description:
    'Each variant (a saved one by name or id, `"current"` for the crew as it is, or `{name, changes}`) is pinned now. Every row × variant × repeat is a run of the normal engine, at most `parallelism` at once; `reviews: skip` (the default, for reviewers only) runs them without task reviews or tool approvals, `wait` keeps both. The experiment stops, skipping what has not run, once its runs (and judges) used `budget`. Scorers: `contains`, `regex`, `equals` and `similarity` (against the row\'s expected output), `length`, `json_schema`, `guardrail`, `judge` (1–10, preset `crewai`), `pairwise`. `gates` decide `passed` once it ends. It survives restarts: finished cells are never run again.',
  access: start,
  body: { schema: ExperimentCreateSchema },
  responses: { 202: { description: "Started.", schema: ExperimentSchema } },
  problems: {
    400: malformed,
    403: 'Skipping reviews needs the reviewer role: send `"reviews": "wait"`.',
    404: "No such crew, dataset or saved variant.",
    422: "A variant, scorer, gate or row that does not fit (`errors`).",
  },
});

export const getExperiment = endpoint({
  method: "GET",
  path: `${BASE}/experiments/{id}`,
  operationId: "getExperiment",
  tag,
  summary: "An experiment's progress, matrix and gates",
  access: read,
  params: experiment,
  responses: { 200: { description: "OK", schema: ExperimentSchema } },
  problems: { 404: "No such crew or experiment." },
});

export const listExperimentCells = endpoint({
  method: "GET",
  path: `${BASE}/experiments/{id}/cells`,
  operationId: "listExperimentCells",
  tag,
  summary: "Each run of an experiment: outputs, scores and the judges' reasons",
  description:
    "At most 2,000 cells, by row, repeat and variant: narrow a larger experiment with `row` or `variant`.",
  access: read,
  params: experiment,
  query: CellsQuerySchema,
  responses: { 200: { description: "By row, repeat and variant.", schema: CellsResponseSchema } },
  problems: { 404: "No such crew or experiment." },
});

export const stopExperiment = endpoint({
  method: "POST",
  path: `${BASE}/experiments/{id}/stop`,
  operationId: "stopExperiment",
  tag,
  summary: "Stop an experiment: running runs stop, the rest are skipped",
  access: { action: "stop" },
  params: experiment,
  responses: { 200: { description: "Stopped.", schema: ExperimentSchema } },
  problems: { 404: "No such crew or experiment.", 409: "It has already ended." },
});
