import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { RelativeTime } from "@/components/ui/relative-time";
import { ConfirmButton } from "./kit/dialogs";
import { connectionState, type LinearConnection } from "./linear-oauth";

/** The connected workspace, a revoked token, or what connecting will grant. */
export function LinearConnectionStatus({
  connection,
  scopesRequested,
}: {
  connection: LinearConnection | undefined;
  scopesRequested: string[];
}) {
  if (connection?.status === "connected")
    return (
      <p className="text-sm">
        Connected to <strong>{connection.workspace}</strong> by {connection.connected_by}{" "}
        <RelativeTime iso={connection.connected_at} /> · scopes: {connection.scopes.join(", ")}
      </p>
    );
  if (connection?.status === "revoked")
    return (
      <Alert tone="danger">
        Disconnected: Linear no longer accepts the token of {connection.workspace}. Connect again.
      </Alert>
    );
  return (
    <p className="text-muted-foreground text-sm">
      Not connected. Agents will get issue and project access ({scopesRequested.join(", ")}).
    </p>
  );
}

/** Connect (or Reconnect) Linear, and Disconnect once there is a connection. */
export function LinearConnectActions({
  connection,
  disconnecting,
  onDisconnect,
}: {
  connection: LinearConnection | undefined;
  disconnecting: boolean;
  onDisconnect: () => unknown;
}) {
  const connected = connectionState(connection) === "connected";
  return (
    <div className="flex flex-wrap gap-2">
      <Button asChild variant={connected ? "secondary" : "primary"}>
        {/* An API route that redirects to Linear: a full navigation on purpose. */}
        <a href="/api/integrations/linear/connect">
          {connected ? "Reconnect Linear" : "Connect Linear"}
        </a>
      </Button>
      {connection && (
        <ConfirmButton
          size="md"
          variant="secondary"
          disabled={disconnecting}
          title="Disconnect Linear?"
          description="Agents stop filing issues in Linear until someone connects it again."
          confirmLabel="Disconnect"
          onConfirm={onDisconnect}
        >
          Disconnect
        </ConfirmButton>
      )}
    </div>
  );
}
