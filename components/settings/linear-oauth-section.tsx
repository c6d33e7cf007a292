"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { type FormEvent, useState } from "react";
import { ErrorText } from "@/components/error-text";
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

  return (
    <section className="card" aria-labelledby="linear-oauth-title">
      <h2 id="linear-oauth-title" style={{ marginTop: 0 }}>
        Linear (OAuth)
      </h2>
      {justConnected && connection?.status === "connected" && (
        <p role="status">Linear is connected: {connection.workspace}.</p>
      )}
      {failure && (
        <p role="alert" className="form-error">
          Linear was not connected: {failure}
        </p>
      )}
      {isPending && <p className="muted">Loading…</p>}
      {data && !data.app_configured && (
        <form onSubmit={submit} aria-label="Linear OAuth application">
          <p className="muted small">
            Create an OAuth application in Linear (Settings → API → OAuth applications) with the
            redirect URL <code className="url">{data.redirect_uri}</code>, then paste its client id
            and secret.
          </p>
          <label htmlFor="linear-client-id">Client ID</label>
          <input
            id="linear-client-id"
            value={app.client_id}
            onChange={(e) => setApp((a) => ({ ...a, client_id: e.target.value }))}
            required
          />
          <label htmlFor="linear-client-secret">Client secret</label>
          <input
            id="linear-client-secret"
            type="password"
            autoComplete="off"
            value={app.client_secret}
            onChange={(e) => setApp((a) => ({ ...a, client_secret: e.target.value }))}
            required
          />
          <button type="submit" className="primary" disabled={saveApp.isPending}>
            Save OAuth application
          </button>
        </form>
      )}
      {data?.app_configured && (
        <>
          {connection?.status === "connected" ? (
            <p>
              Connected to <strong>{connection.workspace}</strong> by {connection.connected_by} on{" "}
              {new Date(connection.connected_at).toLocaleString()} · scopes:{" "}
              {connection.scopes.join(", ")}
            </p>
          ) : connection?.status === "revoked" ? (
            <p role="alert" className="form-error">
              Disconnected: Linear no longer accepts the token of {connection.workspace}. Connect
              again.
            </p>
          ) : (
            <p className="muted">
              Not connected. Agents will get issue and project access (
              {data.scopes_requested.join(", ")}).
            </p>
          )}
          <div className="actions">
            <a className="button primary" href="/api/integrations/linear/connect">
              {connection?.status === "connected" ? "Reconnect Linear" : "Connect Linear"}
            </a>
            {connection && (
              <button
                type="button"
                onClick={() => disconnect.mutate()}
                disabled={disconnect.isPending}
              >
                Disconnect
              </button>
            )}
          </div>
        </>
      )}
      {(error || saveApp.error || disconnect.error) && (
        <ErrorText>{(error ?? saveApp.error ?? disconnect.error)?.message}</ErrorText>
      )}
    </section>
  );
}
