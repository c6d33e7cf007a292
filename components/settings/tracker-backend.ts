import type { ConnectionTest, TrackerSettingsView } from "@/lib/contract/integrations";

export type Backend = TrackerSettingsView["backend"];

export const CHOICES = [
  { value: "embedded", label: "Embedded tracker", help: "Issues live in this Crewdeck." },
  { value: "linear", label: "Linear", help: "Agents file issues in your Linear workspace." },
] as const;

/** The backend on screen: the one picked, else the saved one, else the embedded tracker. */
export const shownBackend = (choice: Backend | null, saved: TrackerSettingsView | undefined) =>
  choice ?? saved?.backend ?? "embedded";

/**
 * What a connection test asks for: nothing when the environment sets the tracker, else what is
 * on screen (a typed key, or the saved one when blank), saved or not.
 */
export const testChoice = (fromEnv: boolean, backend: Backend, key: string) =>
  fromEnv ? undefined : { backend, linearKey: key || undefined };

/** The key field's placeholder: the saved key's hint, or what a Linear key looks like. */
export const keyPlaceholder = (view: TrackerSettingsView) =>
  view.linear_key_saved ? `Saved (${view.linear_key_hint}); type to replace` : "lin_api_…";

/** The tracker a passed test reached, as named to the user. */
export const trackerName = (result: ConnectionTest) =>
  result.backend === "linear" ? "Linear" : "embedded tracker";

/** The teams a passed test saw. */
export const teamList = (result: ConnectionTest) => result.teams?.join(", ") || "(none)";
