import {
  CalibrationCreateSchema,
  CalibrationSchema,
  CalibrationsResponseSchema,
} from "@/lib/contract/calibrations";
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
import type { OperationSpec } from "./operations";

// Experiments: datasets of inputs (with the outputs reviewers approved), variants of a crew kept
// as data, runs of every row by every variant N times, scored by checks and judges.
const BASE = "/api/crews/{crew}";
const tag = "Experiments";
const malformed = "Malformed JSON or wrong value types.";
type Op = Omit<OperationSpec, "tag" | "path"> & { path: string };
const op = (o: Op): OperationSpec => ({ ...o, tag, path: `${BASE}${o.path}` });
const read = { action: "read" } as const;
const start = { action: "start" } as const;

const datasets: OperationSpec[] = [
  op({
    method: "get",
    path: "/datasets",
    operationId: "listDatasets",
    summary: "The crew's datasets",
    access: read,
    responses: { 200: { description: "Newest first.", schema: DatasetsResponseSchema } },
    problems: { 404: "No such crew." },
  }),
  op({
    method: "post",
    path: "/datasets",
    operationId: "createDataset",
    summary: "Create a dataset, optionally with its first rows",
    description:
      "Rows are checked against the crew's inputs as a kickoff's are; one bad row creates nothing (`errors` lists each row, field and reason).",
    access: start,
    body: { schema: DatasetCreateSchema },
    responses: { 201: { description: "Created.", schema: DatasetSchema } },
    problems: {
      400: malformed,
      404: "No such crew.",
      409: "A dataset of that name exists.",
      422: "A row does not fit the crew.",
    },
  }),
  op({
    method: "get",
    path: "/datasets/{id}",
    operationId: "getDataset",
    summary: "A dataset with its rows",
    access: read,
    pathParams: { id: "The dataset's id." },
    responses: { 200: { description: "OK", schema: DatasetDetailSchema } },
    problems: { 404: "No such crew or dataset." },
  }),
  op({
    method: "delete",
    path: "/datasets/{id}",
    operationId: "deleteDataset",
    summary: "Delete a dataset (experiments keep their copies of its rows)",
    access: start,
    pathParams: { id: "The dataset's id." },
    responses: { 204: { description: "Deleted." } },
    problems: { 404: "No such crew or dataset." },
  }),
  op({
    method: "post",
    path: "/datasets/{id}/rows",
    operationId: "addDatasetRows",
    summary: "Add rows: JSON, CSV or JSON Lines",
    description:
      "`application/json`: `{rows: [{inputs, expected}], skip_invalid}`. `text/csv`: a header of input names, and `expected.<task>` columns. `application/jsonl` (or `application/x-ndjson`): one `{inputs, expected}` per line. With `skip_invalid` (`?skip_invalid=true` for CSV and JSON Lines) the valid rows are added and the others reported; otherwise one bad row adds none. Up to 1,000 rows per dataset, 5 MiB per upload.",
    access: start,
    pathParams: { id: "The dataset's id." },
    body: { schema: RowsUploadSchema },
    responses: { 201: { description: "Added.", schema: RowsAddedSchema } },
    problems: {
      400: "Malformed JSON, CSV or JSON Lines (the line is named).",
      404: "No such crew or dataset.",
      413: "Over 5 MiB.",
      422: "A row does not fit the crew (`errors`: row, line, field, reason), or the dataset would pass 1,000 rows.",
    },
  }),
  op({
    method: "delete",
    path: "/datasets/{id}/rows/{position}",
    operationId: "deleteDatasetRow",
    summary: "Delete one row",
    access: start,
    pathParams: { id: "The dataset's id." },
    responses: { 204: { description: "Deleted." } },
    problems: { 404: "No such crew, dataset or row." },
  }),
  op({
    method: "post",
    path: "/datasets/{id}/collect",
    operationId: "collectDatasetRows",
    summary: "Add rows from past runs, with reviewers' approved outputs as expected",
    description:
      "Each run gives a row: its inputs, and for each task a reviewer approved, the approved output (the reviewer's edit when they edited it). A task nobody approved has no expected output.",
    access: start,
    pathParams: { id: "The dataset's id." },
    body: { schema: CollectSchema },
    responses: { 201: { description: "Added.", schema: RowsAddedSchema } },
    problems: {
      400: malformed,
      404: "No such crew or dataset.",
      422: "A run is not this crew's (or not yours), or its inputs no longer fit the crew.",
    },
  }),
];

const variants: OperationSpec[] = [
  op({
    method: "get",
    path: "/variants",
    operationId: "listVariants",
    summary: "The crew's saved variants",
    access: read,
    responses: { 200: { description: "Oldest first.", schema: VariantsResponseSchema } },
    problems: { 404: "No such crew." },
  }),
  op({
    method: "post",
    path: "/variants",
    operationId: "createVariant",
    summary: "Save a variant: changes laid over the crew, never an edit of its files",
    description:
      "`changes` may set an agent's `llm`, `role`, `goal`, `backstory` or `tools`, a task's `description` or `expected_output`, and the `process` (with `manager_llm`). Agents and tasks are named by their ids in the crew's files. Saved with the SHA-256 of the definition the changes make.",
    access: start,
    body: { schema: VariantCreateSchema },
    responses: { 201: { description: "Saved.", schema: VariantSchema } },
    problems: {
      400: malformed,
      404: "No such crew.",
      409: "A variant of that name exists.",
      422: "A change names an agent, task or tool the crew does not have (`errors`).",
    },
  }),
  op({
    method: "get",
    path: "/variants/{id}",
    operationId: "getVariant",
    summary: "One saved variant",
    access: read,
    pathParams: { id: "The variant's id." },
    responses: { 200: { description: "OK", schema: VariantSchema } },
    problems: { 404: "No such crew or variant." },
  }),
  op({
    method: "delete",
    path: "/variants/{id}",
    operationId: "deleteVariant",
    summary: "Delete a saved variant (experiments keep the definition they pinned)",
    access: start,
    pathParams: { id: "The variant's id." },
    responses: { 204: { description: "Deleted." } },
    problems: { 404: "No such crew or variant." },
  }),
];

const experiments: OperationSpec[] = [
  op({
    method: "get",
    path: "/experiments",
    operationId: "listExperiments",
    summary: "The crew's experiments",
    access: read,
    responses: { 200: { description: "Newest first.", schema: ExperimentsResponseSchema } },
    problems: { 404: "No such crew." },
  }),
  op({
    method: "post",
    path: "/experiments",
    operationId: "createExperiment",
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
  }),
  op({
    method: "get",
    path: "/experiments/{id}",
    operationId: "getExperiment",
    summary: "An experiment's progress, matrix and gates",
    access: read,
    pathParams: { id: "The experiment's id." },
    responses: { 200: { description: "OK", schema: ExperimentSchema } },
    problems: { 404: "No such crew or experiment." },
  }),
  op({
    method: "get",
    path: "/experiments/{id}/cells",
    operationId: "listExperimentCells",
    summary: "Each run of an experiment: outputs, scores and the judges' reasons",
    description:
      "At most 2,000 cells, by row, repeat and variant: narrow a larger experiment with `row` or `variant`.",
    access: read,
    pathParams: { id: "The experiment's id." },
    query: CellsQuerySchema,
    responses: { 200: { description: "By row, repeat and variant.", schema: CellsResponseSchema } },
    problems: { 404: "No such crew or experiment." },
  }),
  op({
    method: "post",
    path: "/experiments/{id}/stop",
    operationId: "stopExperiment",
    summary: "Stop an experiment: running runs stop, the rest are skipped",
    access: { action: "stop" },
    pathParams: { id: "The experiment's id." },
    responses: { 200: { description: "Stopped.", schema: ExperimentSchema } },
    problems: { 404: "No such crew or experiment.", 409: "It has already ended." },
  }),
  op({
    method: "get",
    path: "/calibrations",
    operationId: "listCalibrations",
    summary: "The crew's judge calibrations",
    access: read,
    responses: { 200: { description: "Newest first.", schema: CalibrationsResponseSchema } },
    problems: { 404: "No such crew." },
  }),
  op({
    method: "post",
    path: "/calibrations",
    operationId: "createCalibration",
    summary: "Calibrate a judge against reviewers' decisions",
    description:
      "The judge scores what reviewers saw in their latest decisions (`limit`); a score at or above `pass_at` counts as approve. Its agreement with the reviewers is reported with a 95% Wilson interval and Cohen's kappa. An experiment's judge metric shows the latest calibration of the same judge, or says it is uncalibrated.",
    access: start,
    body: { schema: CalibrationCreateSchema },
    responses: { 202: { description: "Started.", schema: CalibrationSchema } },
    problems: { 400: malformed, 404: "No such crew.", 422: "No reviewed outputs to calibrate on." },
  }),
  op({
    method: "get",
    path: "/calibrations/{id}",
    operationId: "getCalibration",
    summary: "A calibration: agreement, interval and each verdict",
    access: read,
    pathParams: { id: "The calibration's id." },
    responses: { 200: { description: "OK", schema: CalibrationSchema } },
    problems: { 404: "No such crew or calibration." },
  }),
];

export const experimentsApi: OperationSpec[] = [...datasets, ...variants, ...experiments];
