import crypto from "node:crypto";
import { isConnectionError } from "@/lib/db/connection-errors";
import type { Db } from "@/lib/db/types";
import { errorMessage } from "@/lib/errors";
import { createNapper, napLoop } from "@/lib/util/napper";
import { advanceExperiment } from "./advance";
import { advanceCalibrations } from "./calibrate-step";
import { claimExperiments } from "./claim";

/**
 * Advances experiments and calibrations in every worker process: it wakes when one is created or
 * stopped anywhere (NOTIFY) and otherwise every `pollMs`, which is also how soon a finished run
 * is scored and the next cell started. Each experiment is advanced by the worker leasing it.
 */
export function startExperimentRunner({
  db,
  pollMs,
  leaseMs,
  log = console.log,
}: {
  db: Db;
  pollMs: number;
  leaseMs: number;
  log?: (msg: string) => void;
}) {
  const owner = `experiments-${crypto.randomUUID()}`;
  const napper = createNapper();
  const said = new Map<string, string>();
  db.listen("crewdeck_experiments", () => napper.wake()).catch((err) =>
    log(`[experiments] LISTEN failed: ${errorMessage(err)}`),
  );
  const loop = napLoop(napper, async (stopping) => {
    try {
      for (const exp of await claimExperiments(db, owner, leaseMs)) {
        if (stopping()) break;
        // One experiment's failure (said, and tried again next step) holds back no other.
        await advanceExperiment(db, exp).then(
          () => said.delete(exp.id),
          (err) => {
            if (isConnectionError(err)) throw err;
            // Said when it starts failing, or fails otherwise: not at every step.
            const message = errorMessage(err);
            if (said.get(exp.id) !== message) log(`[experiments] ${exp.id}: ${message}`);
            said.set(exp.id, message);
          },
        );
      }
      await advanceCalibrations(db, log);
      return pollMs;
    } catch (err) {
      // A database outage is reported once by the Db: back off quietly instead of logging it
      // every poll. Anything else is this step's own failure, said once per step.
      if (!isConnectionError(err)) log(`[experiments] ${errorMessage(err)}`);
      return Math.max(pollMs, 2_000);
    }
  });
  return {
    async stop() {
      await loop.stop();
      // Hand the experiments back at once rather than when the lease lapses.
      await db
        .query(
          "UPDATE experiments SET lease_owner = NULL, lease_expires_at = NULL WHERE lease_owner = $1",
          [owner],
        )
        .catch(() => undefined);
    },
  };
}
