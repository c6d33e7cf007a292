import type { LinearOAuthView } from "@/lib/contract/integrations";

export type LinearConnection = LinearOAuthView["connection"];

/** The workspace's state as the section shows it: connected, revoked by Linear, or none. */
export const connectionState = (connection: LinearConnection | undefined) =>
  connection?.status ?? "none";

/** Back from Linear's consent page: whether it connected, or the error it sent back. */
export function oauthReturn(search: { get: (name: string) => string | null }) {
  return {
    justConnected: search.get("linear") === "connected",
    failure: search.get("linear_error"),
  };
}
