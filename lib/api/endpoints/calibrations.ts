import {
  CalibrationCreateSchema,
  CalibrationSchema,
  CalibrationsResponseSchema,
} from "@/lib/contract/calibrations";
import { uuidId } from "./path-params";
import { BASE, crewCollection } from "./shared";

// Judges calibrated against what reviewers decided (the Experiments tag).
const tag = "Experiments";
const calibrations = crewCollection(`${BASE}/calibrations`, {
  tag,
  params: { id: uuidId("calibration") },
  notFound: "No such crew or calibration.",
});

export const listCalibrations = calibrations.list({
  operationId: "listCalibrations",
  summary: "The crew's judge calibrations",
  order: "Newest first.",
  schema: CalibrationsResponseSchema,
});

export const createCalibration = calibrations.create({
  operationId: "createCalibration",
  summary: "Calibrate a judge against reviewers' decisions",
  description:
    "The judge scores what reviewers saw in their latest decisions (`limit`); a score at or above `pass_at` counts as approve. Its agreement with the reviewers is reported with a 95% Wilson interval and Cohen's kappa. An experiment's judge metric shows the latest calibration of the same judge, or says it is uncalibrated.",
  body: CalibrationCreateSchema,
  responses: { 202: { description: "Started.", schema: CalibrationSchema } },
  problems: { 422: "No reviewed outputs to calibrate on." },
});

export const getCalibration = calibrations.get({
  operationId: "getCalibration",
  summary: "A calibration: agreement, interval and each verdict",
  schema: CalibrationSchema,
});
