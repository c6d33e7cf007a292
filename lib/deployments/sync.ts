import { z } from "zod";
import { unseal } from "@/lib/config/encryption";
import type { Db } from "@/lib/db/types";
import type { ExecutionRow, RemoteState } from "@/lib/run-model/types";
import { withCrews } from "@/lib/runs/crew-definitions";
import { StoredExecutionRow } from "@/lib/runs/execution-row";
import { applyRemote } from "./apply-remote";
import { callDeployment, RemoteUnreachableError } from "./client";
import { readRemoteError, readRemoteStatus } from "./remote-status";
import { fromRemoteLog, fromStatus, hashOf } from "./translate";

// One look at a remote run: its /status and, from a remote Crewdeck, the events of its log we
// have not mirrored yet. Returns whether anything changed, for the poller's back-off.

const RemoteLogSchema = z.object({
  events: z.array(
    z.object({
      seq: z.number().int().positive(),
      type: z.string().max(100),
      task_id: z.string().nullable().optional().default(null),
      attempt: z.number().int().nullable().optional().default(null),
      data: z.record(z.string(), z.unknown()).optional().default({}),
    }),
  ),
  last_seq: z.number().int().optional(),
  has_more: z.boolean().optional(),
});

const StoredRow = StoredExecutionRow.extend({ base_url: z.string(), token_sealed: z.string() });

type Row = ExecutionRow & { base_url: string; token_sealed: string };

async function loadRow(db: Db, id: string): Promise<Row | undefined> {
  const { rows } = await db.query(
    `SELECT e.*, d.base_url, d.token_sealed FROM executions e JOIN deployments d ON d.id = e.deployment_id
      WHERE e.id = $1`,
    [id],
    StoredRow,
  );
  return (await withCrews(db, rows))[0];
}

// One mirroring at a time per run in this process: webhooks arrive in bursts, and each would
// otherwise fetch the same page of the log.
const mirroring = new Map<string, Promise<boolean | null>>();

/**
 * Copies the events of a remote Crewdeck's log we do not have yet, in its order, each once.
 * Returns whether any were new, or null when there is no log to copy (not started there yet,
 * or a remote that serves none: it is then marked "other" and read by /status alone).
 */
export function mirrorRemoteLog(db: Db, id: string): Promise<boolean | null> {
  const previous = mirroring.get(id) ?? Promise.resolve(false);
  const next = previous
    .catch(() => false)
    .then(async () => {
      const row = await loadRow(db, id);
      if (!row?.remote_id || row.remote?.kind === "other") return null;
      return copyLog(db, row);
    });
  mirroring.set(id, next);
  next
    .finally(() => {
      if (mirroring.get(id) === next) mirroring.delete(id);
    })
    .catch(() => {});
  return next;
}

async function copyLog(db: Db, row: Row): Promise<boolean | null> {
  const deployment = { base_url: row.base_url, token: unseal(row.token_sealed) };
  const remoteId = encodeURIComponent(row.remote_id ?? "");
  let after = row.remote?.last_remote_seq ?? 0;
  let changed = false;
  for (let page = 0; page < 20; page++) {
    const reply = await callDeployment(
      deployment,
      "GET",
      `/executions/${remoteId}/events?after=${after}`,
    );
    const log = reply.status === 200 ? RemoteLogSchema.safeParse(reply.body) : undefined;
    if (!log?.success) {
      // No log there: /status alone from now on.
      if (!row.remote?.kind) await applyRemote(db, row.id, { remote: { kind: "other" } });
      return changed || null;
    }
    const events = log.data.events.filter((e) => e.seq > after);
    if (events.length) {
      after = Math.max(...events.map((e) => e.seq));
      await applyRemote(db, row.id, {
        events: events.map(fromRemoteLog),
        stateFromEvents: true,
        remote: { kind: "crewdeck", last_remote_seq: after },
      });
      changed = true;
    } else if (!row.remote?.kind) await applyRemote(db, row.id, { remote: { kind: "crewdeck" } });
    if (!log.data.has_more) break;
  }
  return changed;
}

export async function syncRemote(db: Db, id: string): Promise<{ changed: boolean; done: boolean }> {
  let changed = false;
  try {
    changed = (await mirrorRemoteLog(db, id)) === true;
  } catch (err) {
    if (!(err instanceof RemoteUnreachableError)) throw err;
  }
  const row = await loadRow(db, id);
  if (!row?.remote_id) return { changed: false, done: true };
  const deployment = { base_url: row.base_url, token: unseal(row.token_sealed) };
  const remote: RemoteState = row.remote ?? {};
  const remoteId = encodeURIComponent(row.remote_id);

  try {
    const reply = await callDeployment(deployment, "GET", `/status/${remoteId}`);
    if (reply.status !== 200) {
      const reason = `GET /status answered ${reply.status}: ${readRemoteError(reply.status, reply.body)}`;
      if (reason !== remote.last_error) {
        await applyRemote(db, id, {
          events: [
            { key: `poll-error:${hashOf(reason)}`, type: "remote_error", data: { error: reason } },
          ],
          remote: { ...remote, last_error: reason },
        });
      }
      return { changed: false, done: false };
    }
    const status = readRemoteStatus(reply.body);
    const derived = fromStatus(row, status, { mirrored: remote.kind === "crewdeck" });
    const applied = await applyRemote(db, id, {
      patch: derived.patch,
      events: derived.events,
      snapshot: derived.snapshot,
      remote: {
        kind: remote.kind,
        raw_status: status.raw,
        last_error: null,
        ...(status.last_step ? { last_step_hash: hashOf(status.last_step) } : {}),
      },
    });
    changed ||= derived.changed || Boolean(applied?.events.length);
    const done = ["completed", "error", "cancelled"].includes(applied?.row.status ?? "");
    return { changed, done };
  } catch (err) {
    if (!(err instanceof RemoteUnreachableError)) throw err;
    const reason = `unreachable: ${err.message}`;
    if (reason !== remote.last_error) await applyRemote(db, id, { remote: { last_error: reason } });
    return { changed: false, done: false };
  }
}
