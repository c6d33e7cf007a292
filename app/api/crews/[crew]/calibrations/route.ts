// GET /calibrations — the crew's judge calibrations. POST — calibrate a judge: it scores the
// outputs people already approved or sent back, and its agreement with them is measured (202).
import type { z } from "zod";
import { ownerScope } from "@/lib/auth/principal";
import {
  CalibrationCreateSchema,
  CalibrationSchema,
  CalibrationsResponseSchema,
} from "@/lib/contract/calibrations";
import { getDb } from "@/lib/db";
import { assertLocal } from "@/lib/deployments/local-only";
import {
  calibrationScope,
  createCalibration,
  getCalibration,
  listCalibrations,
} from "@/lib/experiments/calibration-store";
import { json } from "@/lib/http/respond";
import { crewRoute, type NoParams, otherMethods } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

export const GET = crewRoute(
  async ({ crew, principal }) =>
    json({
      calibrations: await listCalibrations(await getDb(), crew.slug, calibrationScope(principal)),
    }),
  { response: CalibrationsResponseSchema },
);

export const POST = crewRoute<NoParams, z.infer<typeof CalibrationCreateSchema>>(
  async ({ crew, deployment, principal, body }) => {
    assertLocal(deployment, "experiment");
    const db = await getDb();
    const id = await createCalibration(
      db,
      crew,
      ownerScope(crew.slug, principal),
      principal,
      body.judge,
      body.limit,
    );
    return json(await getCalibration(db, crew.slug, calibrationScope(principal), id), {
      status: 202,
    });
  },
  { action: "start", body: CalibrationCreateSchema, response: { 202: CalibrationSchema } },
);

export const { PUT, PATCH, DELETE } = otherMethods("GET, POST");
