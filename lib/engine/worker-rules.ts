// What a worker decides on what it knows, apart from the database: which runs it lost, when to
// say that claiming fails or works again, and how long to wait between rounds.

/** The runs active at a renewal that it did not extend: stopped, or taken over elsewhere. */
export const lostLeases = (running: string[], held: ReadonlySet<string>) =>
  running.filter((id) => !held.has(id));

/** How often leases are renewed: three times a lease, at most twenty times a second. */
export const renewalIntervalMs = (leaseMs: number) => Math.max(50, Math.floor(leaseMs / 3));

/** A spell of failed claims: since when (0 while claims work), and whether it was reported. */
export type ClaimSpell = { downSince: number; reported: boolean };

export const CLAIMS_WORK: ClaimSpell = { downSince: 0, reported: false };

/** Claims work again: the spell ends, said once if it was reported. */
export const claimWorked = (spell: ClaimSpell) => ({
  spell: CLAIMS_WORK,
  line: spell.reported ? "[worker] claiming work again" : undefined,
});

/**
 * A claim failed: one line per spell of failures, and none for a lost connection (the database
 * reports an outage itself, once, however many loops notice it).
 */
export function claimFailed(
  spell: ClaimSpell,
  failure: { message: string; connection: boolean },
  now: number,
) {
  const report = !spell.downSince && !failure.connection;
  return {
    spell: { downSince: spell.downSince || now, reported: report || spell.reported },
    line: report ? `[worker] cannot claim work: ${failure.message}` : undefined,
  };
}

/** While claims fail, the loop waits at least two seconds between tries. */
export const outageNapMs = (pollMs: number) => Math.max(pollMs, 2_000);
