import {
  AuthenticationLinearError,
  ForbiddenLinearError,
  InvalidInputLinearError,
  type LinearClient,
  LinearError,
  parseLinearError,
  RatelimitedLinearError,
} from "@linear/sdk";
import { TrackerError } from "../errors";

/** Linear does not accept the key or token at all (as opposed to refusing one action). */
export class LinearAuthenticationError extends TrackerError {}

/** A GraphQL call to Linear on behalf of one tracker. */
export type Gql = <T>(query: string, variables?: Record<string, unknown>) => Promise<T>;

/** Calls through `client`, with Linear's errors and rate limits mapped to our codes. */
export function linearGql(client: LinearClient): Gql {
  return async function gql<T>(
    query: string,
    variables: Record<string, unknown> = {},
    attempt = 1,
  ): Promise<T> {
    try {
      const res = await client.client.rawRequest<T, Record<string, unknown>>(query, variables);
      return res.data as T;
    } catch (raw) {
      const err = raw instanceof LinearError ? raw : parseLinearError(raw as never);
      if (err instanceof RatelimitedLinearError) {
        const wait = Math.min(30_000, (err.retryAfter ?? 2 ** attempt) * 1000);
        if (attempt < 3) {
          await new Promise((r) => setTimeout(r, wait));
          return gql(query, variables, attempt + 1);
        }
        throw new TrackerError(
          "rate_limited",
          "Linear is rate-limiting these requests; wait a minute and try again.",
        );
      }
      if (err instanceof AuthenticationLinearError)
        throw new LinearAuthenticationError(
          "permission_denied",
          "Linear refused the connection: check LINEAR_API_KEY (or reconnect the integration).",
        );
      if (err instanceof ForbiddenLinearError)
        throw new TrackerError(
          "permission_denied",
          `The connected Linear account may not do this: ${err.message}`,
        );
      if (err instanceof InvalidInputLinearError)
        throw new TrackerError("validation_error", `Linear rejected the input: ${err.message}`);
      if (/not found/i.test(err.message)) throw new TrackerError("not_found", err.message);
      throw err;
    }
  };
}
