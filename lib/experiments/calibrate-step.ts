import { isConnectionError } from "@/lib/db/connection-errors";
import type { Db } from "@/lib/db/types";
import { errorMessage } from "@/lib/errors";
import { type CalibrationRow, type JudgedItem, runningCalibrations } from "./calibration-store";
import { judgeOutput } from "./judge";

const BATCH = 4;

/**
 * Judges the next few items of each running calibration and appends the verdicts. The append
 * names how many verdicts it follows, so two workers judging the same items write them once.
 */
export async function advanceCalibrations(db: Db, log: (m: string) => void) {
  for (const c of await runningCalibrations(db)) {
    try {
      await judgeBatch(db, c);
    } catch (err) {
      // The database gone for a moment fails nothing: the runner backs off and tries again.
      if (isConnectionError(err)) throw err;
      log(`[experiments] calibration ${c.id}: ${errorMessage(err)}`);
      await db.query(
        "UPDATE judge_calibrations SET status = 'failed', error = $2, finished_at = now() WHERE id = $1 AND status = 'running'",
        [c.id, errorMessage(err)],
      );
    }
  }
}

async function judgeBatch(db: Db, c: CalibrationRow) {
  const from = c.judged.length;
  const batch = c.items.slice(from, from + BATCH);
  const verdicts: JudgedItem[] = await Promise.all(
    batch.map(async (item) => {
      const v = await judgeOutput(
        c.judge,
        { description: item.description ?? "", expected_output: item.expected_output ?? "" },
        item.output,
      );
      return { score: v.score, reason: v.reason };
    }),
  );
  const done = from + verdicts.length >= c.items.length;
  await db.query(
    `UPDATE judge_calibrations
        SET judged = judged || $2::jsonb,
            status = CASE WHEN $3::boolean THEN 'completed' ELSE status END,
            finished_at = CASE WHEN $3::boolean THEN now() ELSE finished_at END
      WHERE id = $1 AND status = 'running' AND jsonb_array_length(judged) = $4`,
    [c.id, JSON.stringify(verdicts), done, from],
  );
}
