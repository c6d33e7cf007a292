// GET /calibrations/{id} — a calibration's progress, agreement with its interval, and each verdict.
import * as calibrationsApi from "@/lib/api/endpoints/calibrations";
import { crewRoute, otherMethods } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { calibrationScope, getCalibration } from "@/lib/experiments/calibration-store";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = crewRoute(calibrationsApi.getCalibration, async ({ crew, principal, params }) =>
  json(await getCalibration(await getDb(), crew.slug, calibrationScope(principal), params.id)),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
