// Axis arithmetic for the hand-drawn charts: round tick values and a linear scale.

/** 0 and 3–5 round steps up to at least `max` ("nice" numbers: 1, 2, 2.5, 5 × 10ⁿ). */
export function niceTicks(max: number, count = 4): number[] {
  if (!Number.isFinite(max) || max <= 0) return [0, 1];
  const raw = max / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * mag >= raw) ?? 10) * mag;
  const ticks: number[] = [];
  for (let v = 0; v < max + step / 2; v += step) ticks.push(Number(v.toPrecision(12)));
  if ((ticks.at(-1) ?? 0) < max) ticks.push(Number((ticks.length * step).toPrecision(12)));
  return ticks;
}

export const linear =
  (domainMax: number, rangeFrom: number, rangeTo: number) =>
  (v: number): number =>
    rangeFrom + (domainMax === 0 ? 0 : (v / domainMax) * (rangeTo - rangeFrom));
