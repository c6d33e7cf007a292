"use client";

import { useMutation } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Skeleton } from "@/components/ui/skeleton";
import { linearOAuthApi } from "@/lib/api/client";
import { useFields } from "./kit/fields";
import { Problem, SettingsSection } from "./kit/section";
import { useSettingsQuery } from "./kit/use-settings-query";
import { LinearAppForm } from "./linear-app-form";
import { LinearConnectActions, LinearConnectionStatus } from "./linear-connection";
import { connectionState, oauthReturn } from "./linear-oauth";

/**
 * Linear through OAuth, as the platform's Integrations page does it: the OAuth application, then
 * Connect Linear (off to Linear's consent page and back), the connected workspace, Disconnect.
 */
export function LinearOAuthSection() {
  const { justConnected, failure } = oauthReturn(useSearchParams());
  const { query, replace } = useSettingsQuery(["linear-oauth"], linearOAuthApi.get);
  const { data, error, isPending } = query;
  const app = useFields("linear", { client_id: "", client_secret: "" });
  const saveApp = useMutation({
    mutationFn: () => linearOAuthApi.saveApp(app.values),
    onSuccess: replace,
  });
  const disconnect = useMutation({ mutationFn: linearOAuthApi.disconnect, onSuccess: replace });
  const connection = data?.connection;
  const connected = connectionState(connection) === "connected";
  return (
    <SettingsSection
      id="linear-oauth"
      title="Linear (OAuth)"
      description="Connect a Linear workspace once; agents then file and update issues there."
      actions={connected && <Badge tone="success">Connected</Badge>}
      gap="gap-3"
    >
      {justConnected && connected && (
        <Alert tone="success">Linear is connected: {connection?.workspace}.</Alert>
      )}
      {failure && <Alert tone="danger">Linear was not connected: {failure}</Alert>}
      {isPending && <Skeleton className="h-16" />}
      {data && !data.app_configured && (
        <LinearAppForm
          redirectUri={data.redirect_uri}
          app={app}
          busy={saveApp.isPending}
          onSubmit={() => saveApp.mutate()}
        />
      )}
      {data?.app_configured && (
        <>
          <LinearConnectionStatus connection={connection} scopesRequested={data.scopes_requested} />
          <LinearConnectActions
            connection={connection}
            disconnecting={disconnect.isPending}
            onDisconnect={() => disconnect.mutateAsync()}
          />
        </>
      )}
      <Problem errors={[error, saveApp.error, disconnect.error]} />
    </SettingsSection>
  );
}
