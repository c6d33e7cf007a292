import { ApiError } from "@/lib/api/client";
import { cronProblem, nextFireTimes } from "@/lib/schedules/cron";

type Preview = { times: Date[] } | { problem: string };

/** The next five times, worked out here as the server will (croner, five fields), or why not. */
export function preview(cron: string, timezone: string, now = new Date()): Preview {
  const problem = cronProblem(cron);
  if (problem) return { problem };
  try {
    return { times: nextFireTimes(cron.trim(), timezone, now, 5) };
  } catch {
    // A zone this browser does not know: the field says so when the server does.
    return { problem: "" };
  }
}

/** Why the form cannot be sent as it stands, by field; empty when it can. */
export function localProblems(name: string, next: Preview): Record<string, string> {
  const local: Record<string, string> = {};
  if (!name.trim()) local.name = "Name it: it is shown on every run it starts.";
  if ("problem" in next && next.problem) local.cron = next.problem;
  return local;
}

const TIMING_FIELDS = ["name", "cron", "timezone", "overlap", "catch_up"];

/** The server's refusals of the timing's own fields (the inputs' are the kickoff form's). */
export function timingErrors(err: unknown): Record<string, string> {
  const mine: Record<string, string> = {};
  if (err instanceof ApiError)
    for (const e of err.problem.errors ?? [])
      if (TIMING_FIELDS.includes(e.path)) mine[e.path] = e.message;
  return mine;
}
