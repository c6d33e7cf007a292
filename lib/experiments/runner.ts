import crypto from "node:crypto";
import type { Db } from "@/lib/db/types";
import { errorMessage } from "@/lib/errors";
import { createNapper } from "@/lib/util/napper";
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
  let stopping = false;
  const napper = createNapper();
  db.listen("crewdeck_experiments", () => napper.wake()).catch((err) =>
    log(`[experiments] LISTEN failed: ${errorMessage(err)}`),
  );
  const loop = (async () => {
    while (!stopping) {
      try {
        for (const exp of await claimExperiments(db, owner, leaseMs)) {
          if (stopping) break;
          await advanceExperiment(db, exp).catch((err) =>
            log(`[experiments] ${exp.id}: ${errorMessage(err)}`),
          );
        }
        await advanceCalibrations(db, log);
      } catch (err) {
        log(`[experiments] ${errorMessage(err)}`);
      }
      await napper.nap(pollMs);
    }
  })();
  return {
    async stop() {
      stopping = true;
      napper.wake();
      await loop;
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
