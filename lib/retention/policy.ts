// Which finished runs retention deletes: pure rules from RETENTION_DAYS and the crews' own
// `retention_days`, so the sweeper's choices can be checked without a database.

const DAY_MS = 86_400_000;

/** A crew's own setting: days, "forever", absent (the default), or unknown (its file is broken). */
export type CrewRetention = number | "forever" | "unknown" | undefined;

/** Runs finished before `cutoff`, of the one crew named or of every crew but those listed. */
export type RunRule = { cutoff: Date } & ({ crew: string } | { exceptCrews: string[] });

/**
 * One rule for the crews that follow RETENTION_DAYS (none when it is unset: kept for ever) and one
 * per crew with days of its own. A crew whose file does not load keeps its runs: its own setting
 * is not known, and it may be longer than the default.
 */
export function runRules({
  defaultDays,
  crews,
  now,
}: {
  defaultDays: number | undefined;
  crews: ReadonlyMap<string, CrewRetention>;
  now: Date;
}): RunRule[] {
  const before = (days: number) => new Date(now.getTime() - days * DAY_MS);
  const own = [...crews].filter(([, days]) => days !== undefined);
  const rules: RunRule[] = [];
  if (defaultDays !== undefined)
    rules.push({ cutoff: before(defaultDays), exceptCrews: own.map(([slug]) => slug).sort() });
  for (const [crew, days] of own) {
    if (typeof days === "number") rules.push({ cutoff: before(days), crew });
  }
  return rules;
}

/** Ledgers wholly older than this go (once their run is gone); undefined: kept for ever. */
export function ledgerCutoff(days: number | undefined, now: Date): Date | undefined {
  return days === undefined ? undefined : new Date(now.getTime() - days * DAY_MS);
}
