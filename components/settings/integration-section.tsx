"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ErrorText } from "@/components/error-text";
import { integrationApi } from "@/lib/api/client";

/** Integration tokens: what agent runtimes outside Crewdeck present to call tracker actions. */
export function IntegrationSection() {
  const qc = useQueryClient();
  const { data, error } = useQuery({
    queryKey: ["integration-tokens"],
    queryFn: integrationApi.tokens,
  });
  const [access, setAccess] = useState<"read" | "write">("write");
  const [label, setLabel] = useState("");
  const [created, setCreated] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () => integrationApi.create(access, label || undefined),
    onSuccess: (r) => {
      setCreated(r.token);
      setLabel("");
      qc.invalidateQueries({ queryKey: ["integration-tokens"] });
    },
  });
  const revoke = useMutation({
    mutationFn: integrationApi.revoke,
    onSuccess: () => qc.invalidateQueries({ queryKey: ["integration-tokens"] }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  const problem = create.error ?? revoke.error ?? error;
  return (
    <section className="card" aria-labelledby="integration-title">
      <h2 id="integration-title" style={{ marginTop: 0 }}>
        Integration tokens
      </h2>
      <p className="muted small">
        Agent runtimes outside Crewdeck call <code>/api/integrations/actions</code> with an
        integration token; a read-only one may only get and search.
      </p>
      <form onSubmit={submit} className="inline-form">
        <div>
          <label htmlFor="integration-access">Access</label>
          <select
            id="integration-access"
            value={access}
            onChange={(e) => setAccess(e.target.value as "read" | "write")}
          >
            <option value="write">read and write</option>
            <option value="read">read only</option>
          </select>
        </div>
        <div>
          <label htmlFor="integration-label">Integration token label</label>
          <input id="integration-label" value={label} onChange={(e) => setLabel(e.target.value)} />
        </div>
        <button type="submit" className="primary" disabled={create.isPending}>
          Create integration token
        </button>
      </form>
      {created && (
        <div className="secret-once" role="status">
          <p>Copy this token now — it is not shown again:</p>
          <code data-testid="new-integration-token">{created}</code>
        </div>
      )}
      <ErrorText>{problem?.message}</ErrorText>
      {data && data.tokens.length > 0 && (
        <div className="table-wrap">
          <table aria-label="Integration tokens">
            <thead>
              <tr>
                <th scope="col">Token</th>
                <th scope="col">Access</th>
                <th scope="col">Label</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.tokens.map((t) => (
                <tr key={t.id}>
                  <td>
                    <code>{t.prefix}</code>
                  </td>
                  <td>{t.access === "read" ? "read only" : "read and write"}</td>
                  <td>{t.label ?? ""}</td>
                  <td>{t.last_used_at ? new Date(t.last_used_at).toLocaleString() : "never"}</td>
                  <td>
                    {t.revoked_at ? (
                      <span className="muted">revoked</span>
                    ) : (
                      <button
                        type="button"
                        onClick={() => revoke.mutate(t.id)}
                        aria-label={`Revoke integration token ${t.prefix}`}
                      >
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
