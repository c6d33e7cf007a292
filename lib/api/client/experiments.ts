import type { VariantChanges } from "@/lib/contract/datasets";
import type { ExperimentCreate } from "@/lib/contract/experiments";
import { contract, noContent, request } from "./request";

const datasetSchemas = contract(() => import("@/lib/contract/datasets"));
const experimentSchemas = contract(() => import("@/lib/contract/experiments"));
const calibrationSchemas = contract(() => import("@/lib/contract/calibrations"));
const cellSchemas = contract(() => import("@/lib/contract/experiment-cells"));

export type { Dataset, Variant } from "@/lib/contract/datasets";
export type { ExperimentCell } from "@/lib/contract/experiment-cells";
export type { Experiment } from "@/lib/contract/experiments";

/** A crew's datasets, variants and experiments. */
export function experimentsApi(crew: string) {
  const base = `/api/crews/${encodeURIComponent(crew)}`;
  return {
    datasets: () => request(datasetSchemas("DatasetsResponseSchema"), "GET", `${base}/datasets`),
    dataset: (id: string) =>
      request(datasetSchemas("DatasetDetailSchema"), "GET", `${base}/datasets/${id}`),
    createDataset: (body: { name: string; description?: string }) =>
      request(datasetSchemas("DatasetSchema"), "POST", `${base}/datasets`, body),
    deleteDataset: (id: string) => request(noContent, "DELETE", `${base}/datasets/${id}`),
    /** CSV or JSON Lines as the user gave it: the server checks each row. */
    uploadRows: (id: string, text: string, type: "text/csv" | "application/jsonl") =>
      request(datasetSchemas("RowsAddedSchema"), "POST", `${base}/datasets/${id}/rows`, text, type),
    collect: (id: string, executionIds: string[]) =>
      request(datasetSchemas("RowsAddedSchema"), "POST", `${base}/datasets/${id}/collect`, {
        execution_ids: executionIds,
      }),
    variants: () => request(datasetSchemas("VariantsResponseSchema"), "GET", `${base}/variants`),
    createVariant: (body: { name: string; description?: string; changes: VariantChanges }) =>
      request(datasetSchemas("VariantSchema"), "POST", `${base}/variants`, body),
    deleteVariant: (id: string) => request(noContent, "DELETE", `${base}/variants/${id}`),
    experiments: () =>
      request(experimentSchemas("ExperimentsResponseSchema"), "GET", `${base}/experiments`),
    experiment: (id: string) =>
      request(experimentSchemas("ExperimentSchema"), "GET", `${base}/experiments/${id}`),
    createExperiment: (body: Partial<ExperimentCreate> & { name: string; dataset: string }) =>
      request(experimentSchemas("ExperimentSchema"), "POST", `${base}/experiments`, body),
    stopExperiment: (id: string) =>
      request(experimentSchemas("ExperimentSchema"), "POST", `${base}/experiments/${id}/stop`),
    /** Starts a calibration of the judge against reviewers' past decisions. */
    calibrate: (judge: Record<string, unknown>) =>
      request(calibrationSchemas("CalibrationSchema"), "POST", `${base}/calibrations`, { judge }),
    calibration: (id: string) =>
      request(calibrationSchemas("CalibrationSchema"), "GET", `${base}/calibrations/${id}`),
    cells: (id: string, row?: number) =>
      request(
        cellSchemas("CellsResponseSchema"),
        "GET",
        `${base}/experiments/${id}/cells${row ? `?row=${row}` : ""}`,
      ),
  };
}
