"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { type FormEvent, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { RelativeTime } from "@/components/ui/relative-time";
import { Skeleton } from "@/components/ui/skeleton";
import { linearOAuthApi } from "@/lib/api/client";

/**
 * Linear through OAuth, as the platform's Integrations page does it: the OAuth application, then
 * Connect Linear (off to Linear's consent page and back), the connected workspace, Disconnect.
 */
export function LinearOAuthSection() {
  const qc = useQueryClient();
  const search = useSearchParams();
  const { data, error, isPending } = useQuery({
    queryKey: ["linear-oauth"],
    queryFn: linearOAuthApi.get,
  });
  const [app, setApp] = useState({ client_id: "", client_secret: "" });
  const refresh = (view: unknown) => qc.setQueryData(["linear-oauth"], view);
  const saveApp = useMutation({
    mutationFn: () => linearOAuthApi.saveApp(app),
    onSuccess: refresh,
  });
  const disconnect = useMutation({ mutationFn: linearOAuthApi.disconnect, onSuccess: refresh });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    saveApp.mutate();
  };
  const connection = data?.connection;
  const justConnected = search.get("linear") === "connected";
  const failure = search.get("linear_error");

  const problem = error ?? saveApp.error ?? disconnect.error;
  return (
    <Card aria-labelledby="linear-oauth-title">
      <CardHeader>
        <div className="grid gap-1">
          <CardTitle id="linear-oauth-title">Linear (OAuth)</CardTitle>
          <CardDescription>
            Connect a Linear workspace once; agents then file and update issues there.
          </CardDescription>
        </div>
        {connection?.status === "connected" && <Badge tone="success">Connected</Badge>}
      </CardHeader>
      <CardContent className="grid gap-3 [&>*]:min-w-0">
        {justConnected && connection?.status === "connected" && (
          <Alert tone="success">Linear is connected: {connection.workspace}.</Alert>
        )}
        {failure && <Alert tone="danger">Linear was not connected: {failure}</Alert>}
        {isPending && <Skeleton className="h-16" />}
        {data && !data.app_configured && (
          <form
            method="post"
            onSubmit={submit}
            aria-label="Linear OAuth application"
            className="grid gap-3"
          >
            <p className="text-muted-foreground text-sm">
              Create an OAuth application in Linear (Settings → API → OAuth applications) with the
              redirect URL <code className="break-all font-mono">{data.redirect_uri}</code>, then
              paste its client ID and secret.
            </p>
            <div className="grid gap-3 sm:grid-cols-2">
              <Field id="linear-client-id" label="Client ID">
                <Input
                  id="linear-client-id"
                  value={app.client_id}
                  autoComplete="off"
                  onChange={(e) => setApp((a) => ({ ...a, client_id: e.target.value }))}
                  required
                />
              </Field>
              <Field id="linear-client-secret" label="Client secret">
                <Input
                  id="linear-client-secret"
                  type="password"
                  autoComplete="off"
                  value={app.client_secret}
                  onChange={(e) => setApp((a) => ({ ...a, client_secret: e.target.value }))}
                  required
                />
              </Field>
            </div>
            <div>
              <Button type="submit" variant="primary" disabled={saveApp.isPending}>
                Save OAuth application
              </Button>
            </div>
          </form>
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
              <Button
                asChild
                variant={connection?.status === "connected" ? "secondary" : "primary"}
              >
                {/* An API route that redirects to Linear: a full navigation on purpose. */}
                <a href="/api/integrations/linear/connect">
                  {connection?.status === "connected" ? "Reconnect Linear" : "Connect Linear"}
                </a>
              </Button>
              {connection && (
                <ConfirmDialog
                  trigger={<Button disabled={disconnect.isPending}>Disconnect</Button>}
                  title="Disconnect Linear?"
                  description="Agents stop filing issues in Linear until someone connects it again."
                  confirmLabel="Disconnect"
                  onConfirm={() => disconnect.mutateAsync().then(() => undefined)}
                />
              )}
            </div>
          </>
        )}
        {problem && <Alert tone="danger">{problem.message}</Alert>}
      </CardContent>
    </Card>
  );
}
