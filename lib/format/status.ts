import { EXECUTION_STATUSES } from "@/lib/contract/states";

// The dashboard's one vocabulary for run and task states: what each is called and its tone.
export type Tone = "neutral" | "info" | "success" | "warning" | "danger";

const LABELS: Record<string, { label: string; tone: Tone }> = {
  queued: { label: "Queued", tone: "neutral" },
  pending: { label: "Waiting", tone: "neutral" },
  running: { label: "Running", tone: "info" },
  pending_human_input: { label: "Awaiting review", tone: "warning" },
  completed: { label: "Completed", tone: "success" },
  error: { label: "Failed", tone: "danger" },
  // A stopped run is somebody's decision, not a failure: it is never shown in red.
  cancelled: { label: "Stopped", tone: "neutral" },
};

export function statusLabel(status: string): { label: string; tone: Tone } {
  return LABELS[status] ?? { label: status.replaceAll("_", " "), tone: "neutral" };
}

/** The states a person filters runs by, in the order a run moves through them. */
export const RUN_STATUS_OPTIONS = EXECUTION_STATUSES;
