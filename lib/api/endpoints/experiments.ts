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
import { BASE, crewCollection, malformed, read, start } from "./shared";

// Experiments: datasets of inputs (with the outputs reviewers approved), variants of a crew kept
// as data, runs of every row by every variant N times, scored by checks and judges.
const tag = "Experiments";
// Ids are UUIDs: anything else names nothing (404), before the store is asked.
const datasets = crewCollection(`${BASE}/datasets`, {
  tag,
  params: { id: uuidId("dataset") },
  notFound: "No such crew or dataset.",
});
const variants = crewCollection(`${BASE}/variants`, {
  tag,
  params: { id: uuidId("variant") },
  notFound: "No such crew or variant.",
});
const experiments = crewCollection(`${BASE}/experiments`, {
  tag,
  params: { id: uuidId("experiment") },
  notFound: "No such crew or experiment.",
});
const noRow = "No such row.";

export const listDatasets = datasets.list({
  operationId: "listDatasets",
  summary: "The crew's datasets",
  order: "Newest first.",
  schema: DatasetsResponseSchema,
});

export const createDataset = datasets.create({
  operationId: "createDataset",
  summary: "Create a dataset, optionally with its first rows",
  description:
    "Rows are checked against the crew's inputs as a kickoff's are; one bad row creates nothing (`errors` lists each row, field and reason).",
  body: DatasetCreateSchema,
  responses: { 201: { description: "Created.", schema: DatasetSchema } },
  problems: { 409: "A dataset of that name exists.", 422: "A row does not fit the crew." },
});

export const getDataset = datasets.get({
  operationId: "getDataset",
  summary: "A dataset with its rows",
  schema: DatasetDetailSchema,
});

export const deleteDataset = datasets.remove({
  operationId: "deleteDataset",
  summary: "Delete a dataset (experiments keep their copies of its rows)",
});

export const addDatasetRows = endpoint({
  method: "POST",
  path: `${datasets.item}/rows`,
  operationId: "addDatasetRows",
  tag,
  summary: "Add rows: JSON, CSV or JSON Lines",
  description:
    "`application/json`: `{rows: [{inputs, expected}], skip_invalid}`. `text/csv`: a header of input names, and `expected.<task>` columns. `application/jsonl` (or `application/x-ndjson`): one `{inputs, expected}` per line. With `skip_invalid` (`?skip_invalid=true` for CSV and JSON Lines) the valid rows are added and the others reported; otherwise one bad row adds none. Up to 1,000 rows per dataset, 5 MiB per upload.",
  access: start,
  params: datasets.params,
  // Read by the handler by its content type (lib/experiments/add-rows.ts), up to 5 MiB.
  ownBody: { schema: RowsUploadSchema },
  responses: { 201: { description: "Added.", schema: RowsAddedSchema } },
  problems: {
    400: "Malformed JSON, CSV or JSON Lines (the line is named).",
    ...datasets.missing,
    413: "Over 5 MiB.",
    422: "A row does not fit the crew (`errors`: row, line, field, reason), or the dataset would pass 1,000 rows.",
  },
});

export const deleteDatasetRow = endpoint({
  method: "DELETE",
  path: `${datasets.item}/rows/{position}`,
  operationId: "deleteDatasetRow",
  tag,
  summary: "Delete one row",
  access: start,
  params: {
    ...datasets.params,
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
  path: `${datasets.item}/collect`,
  operationId: "collectDatasetRows",
  tag,
  summary: "Add rows from past runs, with reviewers' approved outputs as expected",
  description:
    "Each run gives a row: its inputs, and for each task a reviewer approved, the approved output (the reviewer's edit when they edited it). A task nobody approved has no expected output.",
  access: start,
  params: datasets.params,
  body: { schema: CollectSchema },
  responses: { 201: { description: "Added.", schema: RowsAddedSchema } },
  problems: {
    400: malformed,
    ...datasets.missing,
    422: "A run is not this crew's (or not yours), or its inputs no longer fit the crew.",
  },
});

export const listVariants = variants.list({
  operationId: "listVariants",
  summary: "The crew's saved variants",
  order: "Oldest first.",
  schema: VariantsResponseSchema,
});

export const createVariant = variants.create({
  operationId: "createVariant",
  summary: "Save a variant: changes laid over the crew, never an edit of its files",
  description:
    "`changes` may set an agent's `llm`, `role`, `goal`, `backstory` or `tools`, a task's `description` or `expected_output`, and the `process` (with `manager_llm`). Agents and tasks are named by their ids in the crew's files. Saved with the SHA-256 of the definition the changes make.",
  body: VariantCreateSchema,
  responses: { 201: { description: "Saved.", schema: VariantSchema } },
  problems: {
    409: "A variant of that name exists.",
    422: "A change names an agent, task or tool the crew does not have (`errors`).",
  },
});

export const getVariant = variants.get({
  operationId: "getVariant",
  summary: "One saved variant",
  schema: VariantSchema,
});

export const deleteVariant = variants.remove({
  operationId: "deleteVariant",
  summary: "Delete a saved variant (experiments keep the definition they pinned)",
});

export const listExperiments = experiments.list({
  operationId: "listExperiments",
  summary: "The crew's experiments",
  order: "Newest first.",
  schema: ExperimentsResponseSchema,
});

export const createExperiment = experiments.create({
  operationId: "createExperiment",
  summary: "Run a dataset through variants of the crew, N times each, and score every run",
  description:
    'Each variant (a saved one by name or id, `"current"` for the crew as it is, or `{name, changes}`) is pinned now. Every row × variant × repeat is a run of the normal engine, at most `parallelism` at once; `reviews: skip` (the default, for reviewers only) runs them without task reviews or tool approvals, `wait` keeps both. The experiment stops, skipping what has not run, once its runs (and judges) used `budget`. Scorers: `contains`, `regex`, `equals` and `similarity` (against the row\'s expected output), `length`, `json_schema`, `guardrail`, `judge` (1–10, preset `crewai`), `pairwise`. `gates` decide `passed` once it ends. It survives restarts: finished cells are never run again.',
  body: ExperimentCreateSchema,
  responses: { 202: { description: "Started.", schema: ExperimentSchema } },
  problems: {
    403: 'Skipping reviews needs the reviewer role: send `"reviews": "wait"`.',
    404: "No such crew, dataset or saved variant.",
    422: "A variant, scorer, gate or row that does not fit (`errors`).",
  },
});

export const getExperiment = experiments.get({
  operationId: "getExperiment",
  summary: "An experiment's progress, matrix and gates",
  schema: ExperimentSchema,
});

export const listExperimentCells = endpoint({
  method: "GET",
  path: `${experiments.item}/cells`,
  operationId: "listExperimentCells",
  tag,
  summary: "Each run of an experiment: outputs, scores and the judges' reasons",
  description:
    "At most 2,000 cells, by row, repeat and variant: narrow a larger experiment with `row` or `variant`.",
  access: read,
  params: experiments.params,
  query: CellsQuerySchema,
  responses: { 200: { description: "By row, repeat and variant.", schema: CellsResponseSchema } },
  problems: experiments.missing,
});

export const stopExperiment = endpoint({
  method: "POST",
  path: `${experiments.item}/stop`,
  operationId: "stopExperiment",
  tag,
  summary: "Stop an experiment: running runs stop, the rest are skipped",
  access: { action: "stop" },
  params: experiments.params,
  responses: { 200: { description: "Stopped.", schema: ExperimentSchema } },
  problems: { ...experiments.missing, 409: "It has already ended." },
});
