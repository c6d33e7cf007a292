import crypto from "node:crypto";
import { authSecret } from "@/lib/auth/auth-secret";
import { env } from "@/lib/config/env";
import { publicUrl } from "@/lib/config/public-url";
import type { Queryable } from "@/lib/db/types";
import type { AppliedEvent, ExecutionRow } from "@/lib/run-model/types";
import { WEBHOOK_CHANNEL } from "@/lib/webhooks/enqueue";
import { signReviewLink } from "./link-token";
import { describeEvent, noticeEvent, toEmail, toSlack } from "./messages";
import type { NotifyEvent } from "./preferences";
import { enabledPeople, matchAssignees, type Person, stringList } from "./recipients";
import { configuredChannels } from "./settings";

// The delivery row's `url` for Slack: the real URL is a sealed setting, read when sending.
const SLACK_TARGET = "slack:incoming-webhook";

/** Who an event is for (before their preferences): see the contract's assignee rules. */
export function recipientsOf(
  kind: NotifyEvent,
  row: Pick<ExecutionRow, "owner_user_id">,
  event: Pick<AppliedEvent, "data">,
  people: Person[],
): Person[] {
  switch (kind) {
    case "review_waiting":
    case "review_reminder":
      // A reassignment (review_reassigned) says whom it now waits for in `to`.
      return matchAssignees(stringList(event.data.assignees ?? event.data.to), people);
    case "review_escalation":
      return matchAssignees(stringList(event.data.to), people);
    case "run_outcome":
      return people.filter((p) => p.id === row.owner_user_id);
  }
}

/**
 * Whether `events` may owe a notification (which then depends on the channels set up and people's
 * preferences, read in the transaction). A run's outcome goes to its owner only: none for a run
 * started with an organization token.
 */
export function mayNotify(
  row: Pick<ExecutionRow, "owner_user_id">,
  events: Pick<AppliedEvent, "type">[],
) {
  return events.some((e) => {
    const kind = noticeEvent(e.type);
    return kind !== null && (kind !== "run_outcome" || row.owner_user_id !== null);
  });
}

type Outgoing = {
  kind: "email" | "slack";
  url: string;
  recipient: string | null;
  seq: number;
  payload: unknown;
};

/**
 * The notifications `events` make — "a review is waiting", reminders, escalations, the run's
 * outcome — written into the webhook outbox in the caller's transaction, as webhooks are: a
 * message is owed exactly when its event exists. One e-mail per person who wants it; one Slack
 * message per event naming the people who chose Slack. Channels not set up are skipped.
 */
export async function enqueueNotifications(
  q: Queryable,
  row: ExecutionRow,
  events: AppliedEvent[],
) {
  // The writer sends only changes that may notify this way (lib/runs/execution-writer.ts).
  if (!mayNotify(row, events)) return 0;
  const relevant = events.filter((e) => noticeEvent(e.type));
  const channels = await configuredChannels(q);
  if (!channels.email && !channels.slack) return 0;
  const people = await enabledPeople(q);
  const base = publicUrl();
  const runUrl = `${base}/crews/${row.crew}/runs/${row.id}`;
  const out: Outgoing[] = [];
  for (const event of relevant) {
    const kind = noticeEvent(event.type);
    if (!kind) continue;
    const recipients = recipientsOf(kind, row, event, people);
    const reviewUrl = (recipient: string | null) =>
      kind === "run_outcome" || !event.task_id
        ? undefined
        : `${base}/review-link/${signReviewLink(
            authSecret(),
            {
              execution_id: row.id,
              crew: row.crew,
              task_id: event.task_id,
              attempt: event.attempt,
              recipient,
            },
            { ttlHours: env().NOTIFY_LINK_TTL_HOURS },
          )}`;
    if (channels.email) {
      for (const p of recipients.filter((r) => r.prefs[kind].email)) {
        const notice = describeEvent({ row, event, runUrl, reviewUrl: reviewUrl(p.id) });
        if (notice)
          out.push({
            kind: "email",
            url: `mailto:${p.email}`,
            recipient: p.id,
            seq: event.seq,
            payload: toEmail(notice, p.email),
          });
      }
    }
    const onSlack = recipients.filter((r) => r.prefs[kind].slack);
    if (channels.slack && onSlack.length) {
      const notice = describeEvent({ row, event, runUrl, reviewUrl: reviewUrl(null) });
      if (notice)
        out.push({
          kind: "slack",
          url: SLACK_TARGET,
          recipient: null,
          seq: event.seq,
          payload: toSlack(
            notice,
            onSlack.map((p) => p.email),
          ),
        });
    }
  }
  if (!out.length) return 0;
  const params: unknown[] = [row.id];
  const values = out.map((o) => {
    params.push(crypto.randomUUID(), o.seq, o.kind, o.url, JSON.stringify(o.payload), o.recipient);
    const n = params.length;
    return `($${n - 5}::uuid, $1::uuid, $${n - 4}::int, $${n - 3}, $${n - 2}, $${n - 1}::jsonb, $${n}::uuid)`;
  });
  await q.query(
    `INSERT INTO webhook_deliveries (id, execution_id, event_seq, kind, url, payload, recipient_user_id)
     VALUES ${values.join(", ")}`,
    params,
  );
  await q.query(`SELECT pg_notify('${WEBHOOK_CHANNEL}', '')`);
  return out.length;
}
