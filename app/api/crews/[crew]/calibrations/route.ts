// GET /calibrations — the crew's judge calibrations. POST — calibrate a judge: it scores the
// outputs people already approved or sent back, and its agreement with them is measured (202).
import * as calibrationsApi from "@/lib/api/endpoints/calibrations";
import { crewRoute, otherMethods } from "@/lib/api/route";
import { ownerScope } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { assertLocal } from "@/lib/deployments/local-only";
import {
  calibrationScope,
  createCalibration,
  getCalibration,
  listCalibrations,
} from "@/lib/experiments/calibration-store";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = crewRoute(calibrationsApi.listCalibrations, async ({ crew, principal }) =>
  json({
    calibrations: await listCalibrations(await getDb(), crew.slug, calibrationScope(principal)),
  }),
);

export const POST = crewRoute(
  calibrationsApi.createCalibration,
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
);

export const { PUT, PATCH, DELETE } = otherMethods("GET, POST");
