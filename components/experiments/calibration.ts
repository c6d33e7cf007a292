import type { Calibration } from "@/lib/contract/calibrations";
import { formatPercent } from "@/lib/format/numbers";

// Calibrating a judge against reviewers' past decisions, from the experiment's matrix.

/** What a finished (or abandoned) calibration says: how often the judge agreed, or why not. */
export function calibrationOutcome(
  c: Pick<Calibration, "status" | "agreement" | "error"> & { items: { reason: string }[] },
): { ok: boolean; text: string } {
  if (c.status === "completed" && c.agreement !== null)
    return {
      ok: true,
      text: `The judge agrees with the reviewers ${formatPercent(c.agreement)} of the time.`,
    };
  if (c.status === "completed")
    return {
      ok: false,
      text: `The judge scored none of the decisions: ${c.items[0]?.reason ?? "no answer"}`,
    };
  return { ok: false, text: c.error ?? "The calibration did not finish." };
}

/** Starts a calibration and follows it every 1.5 s (up to 200 times) until it is done. */
export async function calibrateJudge<C extends Pick<Calibration, "id" | "status">>(
  api: {
    calibrate: (judge: Record<string, unknown>) => Promise<C>;
    calibration: (id: string) => Promise<C>;
  },
  judge: Record<string, unknown>,
  onStarted: (c: C) => void,
): Promise<C> {
  let c = await api.calibrate(judge);
  onStarted(c);
  for (let i = 0; i < 200 && c.status === "running"; i++) {
    await new Promise((r) => setTimeout(r, 1500));
    c = await api.calibration(c.id);
  }
  return c;
}
