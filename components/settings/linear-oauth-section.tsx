"use client";

import { useMutation } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { RelativeTime } from "@/components/ui/relative-time";
import { Skeleton } from "@/components/ui/skeleton";
import { linearOAuthApi } from "@/lib/api/client";
import { ConfirmButton } from "./kit/dialogs";
import { InputField, SettingsForm, SubmitButton, useFields } from "./kit/fields";
import { Problem, SettingsSection } from "./kit/section";
import { useSettingsQuery } from "./kit/use-settings-query";

/**
 * Linear through OAuth, as the platform's Integrations page does it: the OAuth application, then
 * Connect Linear (off to Linear's consent page and back), the connected workspace, Disconnect.
 */
export function LinearOAuthSection() {
  const search = useSearchParams();
  const { query, replace } = useSettingsQuery(["linear-oauth"], linearOAuthApi.get);
  const { data, error, isPending } = query;
  const app = useFields("linear", { client_id: "", client_secret: "" });
  const saveApp = useMutation({
    mutationFn: () => linearOAuthApi.saveApp(app.values),
    onSuccess: replace,
  });
  const disconnect = useMutation({ mutationFn: linearOAuthApi.disconnect, onSuccess: replace });
  const connection = data?.connection;
  const justConnected = search.get("linear") === "connected";
  const failure = search.get("linear_error");
  return (
    <SettingsSection
      id="linear-oauth"
      title="Linear (OAuth)"
      description="Connect a Linear workspace once; agents then file and update issues there."
      actions={connection?.status === "connected" && <Badge tone="success">Connected</Badge>}
      gap="gap-3"
    >
      {justConnected && connection?.status === "connected" && (
        <Alert tone="success">Linear is connected: {connection.workspace}.</Alert>
      )}
      {failure && <Alert tone="danger">Linear was not connected: {failure}</Alert>}
      {isPending && <Skeleton className="h-16" />}
      {data && !data.app_configured && (
        <SettingsForm
          onSubmit={() => saveApp.mutate()}
          aria-label="Linear OAuth application"
          className="grid gap-3"
        >
          <p className="text-muted-foreground text-sm">
            Create an OAuth application in Linear (Settings → API → OAuth applications) with the
            redirect URL <code className="break-all font-mono">{data.redirect_uri}</code>{" "}
            <CopyButton text={data.redirect_uri} what="redirect URL" />, then paste its client ID
            and secret.
          </p>
          <div className="grid gap-3 sm:grid-cols-2">
            <InputField label="Client ID" autoComplete="off" required {...app.bind("client_id")} />
            <InputField
              label="Client secret"
              type="password"
              autoComplete="off"
              required
              {...app.bind("client_secret")}
            />
          </div>
          <div>
            <SubmitButton busy={saveApp.isPending}>Save OAuth application</SubmitButton>
          </div>
        </SettingsForm>
      )}
      {data?.app_configured && (
        <>
          {connection?.status === "connected" ? (
            <p className="text-sm">
              Connected to <strong>{connection.workspace}</strong> by {connection.connected_by}{" "}
              <RelativeTime iso={connection.connected_at} /> · scopes:{" "}
              {connection.scopes.join(", ")}
            </p>
          ) : connection?.status === "revoked" ? (
            <Alert tone="danger">
              Disconnected: Linear no longer accepts the token of {connection.workspace}. Connect
              again.
            </Alert>
          ) : (
            <p className="text-muted-foreground text-sm">
              Not connected. Agents will get issue and project access (
              {data.scopes_requested.join(", ")}).
            </p>
          )}
          <div className="flex flex-wrap gap-2">
            <Button asChild variant={connection?.status === "connected" ? "secondary" : "primary"}>
              {/* An API route that redirects to Linear: a full navigation on purpose. */}
              <a href="/api/integrations/linear/connect">
                {connection?.status === "connected" ? "Reconnect Linear" : "Connect Linear"}
              </a>
            </Button>
            {connection && (
              <ConfirmButton
                size="md"
                variant="secondary"
                disabled={disconnect.isPending}
                title="Disconnect Linear?"
                description="Agents stop filing issues in Linear until someone connects it again."
                confirmLabel="Disconnect"
                onConfirm={() => disconnect.mutateAsync()}
              >
                Disconnect
              </ConfirmButton>
            )}
          </div>
        </>
      )}
      <Problem errors={[error, saveApp.error, disconnect.error]} />
    </SettingsSection>
  );
}
