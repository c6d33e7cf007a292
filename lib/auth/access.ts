import { AppError } from "@/lib/errors";
import type { Principal } from "./principal";
import { type Action, can } from "./roles";

/**
 * Every data function that returns what a caller may see takes the caller and starts here, so a
 * page or route that forgot to check cannot read anything: the data refuses, not the layout.
 */
export function assertCan(principal: Principal, action: Action = "read"): void {
  if (!principal || !can(principal, action)) {
    throw new AppError("forbidden", 403, `Your access does not allow this (${action}).`);
  }
}

/**
 * Shared team data (tracker issues and projects, the crew catalogue, remote deployments) is for
 * people signed in and organization tokens. A user token sees only its owner's runs.
 */
export function assertCanReadShared(principal: Principal): void {
  assertCan(principal, "read");
  if (principal.kind === "user") {
    throw new AppError(
      "forbidden",
      403,
      "A personal token reads only its owner's runs; use the dashboard or an organization token.",
    );
  }
}
