import { z } from "zod";
import { json } from "@/lib/db/columns";
import type { Db } from "@/lib/db/types";
import { errors } from "@/lib/errors";
import { fieldOf } from "@/lib/util/field";
import { CHANNELS, NOTIFY_EVENTS, type NotificationPrefs } from "./schemas";

export type { NotificationPrefs, NotifyEvent } from "./schemas";

// What each person wants to hear about, and where. Stored on the user (users.notification_prefs,
// null until they change something): a person who never opened the settings gets the defaults.

// Everything by e-mail; Slack (a team channel, named people mentioned) for the review events only.
export const DEFAULT_PREFS: NotificationPrefs = {
  review_waiting: { email: true, slack: true },
  review_reminder: { email: true, slack: true },
  review_escalation: { email: true, slack: true },
  run_outcome: { email: true, slack: false },
};

/** Saved preferences over the defaults: an event or channel added later starts at its default. */
export function withDefaults(saved: unknown): NotificationPrefs {
  const out = structuredClone(DEFAULT_PREFS);
  for (const event of NOTIFY_EVENTS) {
    const choice = fieldOf(saved, event);
    for (const channel of CHANNELS) {
      const v = fieldOf(choice, channel);
      if (typeof v === "boolean") out[event][channel] = v;
    }
  }
  return out;
}

export async function readPreferences(db: Db, userId: string): Promise<NotificationPrefs> {
  const { rows } = await db.query(
    "SELECT notification_prefs FROM users WHERE id = $1",
    [userId],
    z.object({ notification_prefs: json }),
  );
  if (!rows[0]) throw errors.notFound("No such user.");
  return withDefaults(rows[0].notification_prefs);
}

export async function savePreferences(db: Db, userId: string, prefs: NotificationPrefs) {
  await db.query("UPDATE users SET notification_prefs = $2::jsonb WHERE id = $1", [
    userId,
    JSON.stringify(prefs),
  ]);
  return prefs;
}
