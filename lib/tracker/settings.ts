import { z } from "zod";
import { seal, unseal } from "@/lib/config/encryption";
import { env } from "@/lib/config/env";
import { readSetting, writeSetting } from "@/lib/db/settings";
import type { Db } from "@/lib/db/types";
import { TrackerError } from "./errors";
import { oauthAccess } from "./linear/oauth-tokens";

// Which tracker agents use: LINEAR_API_KEY in the environment wins; otherwise what an
// administrator saved on the settings page (the key sealed at rest); otherwise the embedded one.
export const TrackerSettingsSchema = z
  .object({
    backend: z.enum(["embedded", "linear"]),
    linearKey: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .optional()
      .describe("Leave out to keep the saved key"),
  })
  .meta({ id: "TrackerSettings" });

export type TrackerBackendChoice =
  | { backend: "embedded" }
  | { backend: "linear"; apiKey: string; source: "environment" | "settings" }
  | { backend: "linear"; accessToken: string; scopes: string[]; source: "oauth" };

// What the settings page saves: the Linear key sealed.
export const SavedTrackerSettings = z.object({
  backend: z.enum(["embedded", "linear"]),
  linearKey: z.string().optional(),
});
const CACHE_MS = 5_000;
let cached: { at: number; value: TrackerBackendChoice } | undefined;

const readSaved = (db: Db) => readSetting(db, "tracker", SavedTrackerSettings);

export async function trackerBackend(db: Db): Promise<TrackerBackendChoice> {
  const fromEnv = env().LINEAR_API_KEY;
  if (fromEnv) return { backend: "linear", apiKey: fromEnv, source: "environment" };
  // An OAuth connection, when there is one, is what the administrator chose last.
  const oauth = await oauthAccess(db);
  if (oauth)
    return { backend: "linear", accessToken: oauth.token, scopes: oauth.scopes, source: "oauth" };
  if (cached && Date.now() - cached.at < CACHE_MS) return cached.value;
  const saved = await readSaved(db);
  let value: TrackerBackendChoice = { backend: "embedded" };
  if (saved?.backend === "linear" && saved.linearKey) {
    try {
      value = { backend: "linear", apiKey: unseal(saved.linearKey), source: "settings" };
    } catch {
      throw new TrackerError(
        "permission_denied",
        "The saved Linear key cannot be read (was AUTH_SECRET or DATA_DIR changed?); save it again in Settings.",
      );
    }
  }
  cached = { at: Date.now(), value };
  return value;
}

/** What the settings page shows: never the key itself, only whether one is saved and its end. */
export async function describeTrackerSettings(db: Db) {
  const fromEnv = Boolean(env().LINEAR_API_KEY);
  const saved = await readSaved(db);
  const key = saved?.linearKey ? unseal(saved.linearKey) : undefined;
  return {
    backend: fromEnv ? "linear" : (saved?.backend ?? "embedded"),
    source: fromEnv ? "environment" : saved ? "settings" : "default",
    linear_key_saved: Boolean(key),
    linear_key_hint: key ? `…${key.slice(-4)}` : null,
  };
}

export async function saveTrackerSettings(db: Db, input: z.infer<typeof TrackerSettingsSchema>) {
  const saved = await readSaved(db);
  const linearKey = input.linearKey ? seal(input.linearKey) : saved?.linearKey;
  if (input.backend === "linear" && !linearKey)
    throw new Error("A Linear API key is needed to use Linear.");
  const value: z.infer<typeof SavedTrackerSettings> = {
    backend: input.backend,
    ...(linearKey ? { linearKey } : {}),
  };
  await writeSetting(db, "tracker", value);
  cached = undefined;
}
