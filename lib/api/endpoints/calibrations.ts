import {
  CalibrationCreateSchema,
  CalibrationSchema,
  CalibrationsResponseSchema,
} from "@/lib/contract/calibrations";
import { endpoint } from "./endpoint";
import { uuidId } from "./path-params";
import { BASE, malformed, noCrew, read, start } from "./shared";

// Judges calibrated against what reviewers decided (the Experiments tag).
const tag = "Experiments";
const calibration = { id: uuidId("calibration") };

export const listCalibrations = endpoint({
  method: "GET",
  path: `${BASE}/calibrations`,
  operationId: "listCalibrations",
  tag,
  summary: "The crew's judge calibrations",
  access: read,
  responses: { 200: { description: "Newest first.", schema: CalibrationsResponseSchema } },
  problems: noCrew,
});

export const createCalibration = endpoint({
  method: "POST",
  path: `${BASE}/calibrations`,
  operationId: "createCalibration",
  tag,
  summary: "Calibrate a judge against reviewers' decisions",
  description:
    "The judge scores what reviewers saw in their latest decisions (`limit`); a score at or above `pass_at` counts as approve. Its agreement with the reviewers is reported with a 95% Wilson interval and Cohen's kappa. An experiment's judge metric shows the latest calibration of the same judge, or says it is uncalibrated.",
  access: start,
  body: { schema: CalibrationCreateSchema },
  responses: { 202: { description: "Started.", schema: CalibrationSchema } },
  problems: { 400: malformed, ...noCrew, 422: "No reviewed outputs to calibrate on." },
});

export const getCalibration = endpoint({
  method: "GET",
  path: `${BASE}/calibrations/{id}`,
  operationId: "getCalibration",
  tag,
  summary: "A calibration: agreement, interval and each verdict",
  access: read,
  params: calibration,
  responses: { 200: { description: "OK", schema: CalibrationSchema } },
  problems: { 404: "No such crew or calibration." },
});
