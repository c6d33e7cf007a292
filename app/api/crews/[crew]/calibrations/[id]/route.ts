// GET /calibrations/{id} — a calibration's progress, agreement with its interval, and each verdict.

import { CalibrationSchema } from "@/lib/contract/calibrations";
import { idParams } from "@/lib/contract/datasets";
import { getDb } from "@/lib/db";
import { calibrationScope, getCalibration } from "@/lib/experiments/calibration-store";
import { json } from "@/lib/http/respond";
import { crewRoute, otherMethods } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

export const GET = crewRoute<{ id: string }>(
  async ({ crew, principal, params }) =>
    json(await getCalibration(await getDb(), crew.slug, calibrationScope(principal), params.id)),
  { params: idParams("calibration"), response: CalibrationSchema },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
