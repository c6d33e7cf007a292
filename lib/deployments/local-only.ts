import { errors } from "@/lib/errors";
import type { Deployment } from "./store";

/** Schedules and triggers start runs here, in the same transaction as their claim: local only. */
export function assertLocal(
  deployment: Deployment | undefined,
  what: "schedule" | "trigger" | "dataset" | "variant" | "experiment",
) {
  if (deployment)
    throw errors.unprocessable(
      `A remote deployment's crew cannot have a ${what} here: its runs start on the deployment, outside this database's transaction. Add the ${what} where the crew runs.`,
    );
}
