// Axis arithmetic for the hand-drawn charts: round tick values and a linear scale.

/** What the axis counts: any number, whole things (runs), or seconds (said in s, m or h). */
export type TickUnit = "number" | "count" | "seconds";

const NICE = [1, 2, 2.5, 5, 10];
// Steps a clock reads as round: seconds and minutes in 1, 2, 5, 10, 15, 30; hours as numbers.
const CLOCK = [1, 2, 5, 10, 15, 30, 60];

function steps(max: number, count: number, nice: number[], whole: boolean): number[] {
  const raw = max / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  let step = (nice.find((m) => m * mag >= raw) ?? nice.at(-1) ?? 10) * mag;
  // Whole things never get a half tick: 0, 1, 2 — not 0, 0.5, 1, 1.5 read as 0, 1, 1, 2.
  if (whole) step = Math.max(1, Math.round(step));
  const ticks: number[] = [];
  for (let v = 0; v < max + step / 2; v += step) ticks.push(Number(v.toPrecision(12)));
  if ((ticks.at(-1) ?? 0) < max) ticks.push(Number((ticks.length * step).toPrecision(12)));
  return ticks;
}

function clockSteps(max: number, count: number): number[] {
  const raw = max / count;
  const step = CLOCK.find((m) => m >= raw) ?? steps(raw, 1, NICE, true)[1] ?? 60;
  const ticks: number[] = [];
  for (let v = 0; v < max + step / 2; v += step) ticks.push(v);
  if ((ticks.at(-1) ?? 0) < max) ticks.push(ticks.length * step);
  return ticks;
}

/**
 * 0 and 3–5 round steps up to at least `max` ("nice" numbers: 1, 2, 2.5, 5 × 10ⁿ); whole steps
 * for counts; for seconds, steps a clock reads as round (10 s, 1 m, 2 m, 15 m, 1 h).
 */
export function niceTicks(max: number, count = 4, unit: TickUnit = "number"): number[] {
  if (!Number.isFinite(max) || max <= 0) return [0, 1];
  if (unit === "count") return steps(max, count, NICE, true);
  if (unit !== "seconds") return steps(max, count, NICE, false);
  if (max <= 90) return clockSteps(max, count);
  if (max <= 90 * 60) return clockSteps(max / 60, count).map((m) => m * 60);
  return steps(max / 3600, count, NICE, false).map((h) => h * 3600);
}

export const linear =
  (domainMax: number, rangeFrom: number, rangeTo: number) =>
  (v: number): number =>
    rangeFrom + (domainMax === 0 ? 0 : (v / domainMax) * (rangeTo - rangeFrom));
