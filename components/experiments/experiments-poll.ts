import type { Experiment } from "@/lib/api/client";

/** How often the experiments list refetches: every 2 s while one runs, else every 30 s. */
export function experimentsPollMs(experiments: Pick<Experiment, "status">[] | undefined): number {
  return experiments?.some((x) => x.status === "running") ? 2000 : 30_000;
}
