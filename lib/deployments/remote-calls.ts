import { AppError, errors } from "@/lib/errors";
import { callDeployment, RemoteUnreachableError } from "./client";
import { readRemoteError } from "./remote-status";
import type { Deployment } from "./store";

// A remote run's calls to its deployment, with the deployment's refusals and silences answered
// to our caller as problems of their own.

/** The deployment's answer as a problem for our caller: its own words, and which side failed. */
export function remoteFailure(what: string, status: number, body: unknown) {
  if (status === 422 || status === 400)
    return errors.unprocessable(
      `The deployment refused the ${what}: ${readRemoteError(status, body)}`,
    );
  if (status === 401 || status === 403)
    return new AppError(
      "remote-unauthorized",
      502,
      `The deployment refused our token (${status}); an administrator must update it in Settings → Deployments.`,
    );
  return new AppError(
    "remote-error",
    502,
    `The deployment answered ${status} to the ${what}: ${readRemoteError(status, body)}`,
  );
}

const unreachable = (err: RemoteUnreachableError) =>
  new AppError(
    "remote-unreachable",
    502,
    `The deployment cannot be reached: ${err.message}`,
    {},
    {
      "retry-after": "10",
    },
  );

export async function ask(d: Deployment, method: "GET" | "POST", path: string, body?: unknown) {
  try {
    return await callDeployment(d, method, path, body);
  } catch (err) {
    if (err instanceof RemoteUnreachableError) throw unreachable(err);
    throw err;
  }
}
