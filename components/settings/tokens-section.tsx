"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ErrorText } from "@/components/error-text";
import { settingsApi } from "@/lib/api/client";

/** API tokens: created here, shown once with a copy button, listed with last use, revocable. */
export function TokensSection({
  isAdmin,
  canHaveToken,
}: {
  isAdmin: boolean;
  canHaveToken: boolean;
}) {
  const qc = useQueryClient();
  const { data, error, isPending } = useQuery({
    queryKey: ["tokens"],
    queryFn: settingsApi.tokens,
  });
  const [kind, setKind] = useState<"org" | "user">(isAdmin ? "org" : "user");
  const [label, setLabel] = useState("");
  const [created, setCreated] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const create = useMutation({
    mutationFn: () => settingsApi.createToken(kind, label || undefined),
    onSuccess: (r) => {
      setCreated(r.token);
      setCopied(false);
      setLabel("");
      qc.invalidateQueries({ queryKey: ["tokens"] });
    },
  });
  const revoke = useMutation({
    mutationFn: settingsApi.revokeToken,
    onSuccess: () => qc.invalidateQueries({ queryKey: ["tokens"] }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <section className="card" aria-labelledby="tokens-title">
      <h2 id="tokens-title" style={{ marginTop: 0 }}>
        API tokens
      </h2>
      {(isAdmin || canHaveToken) && (
        <form onSubmit={submit} className="inline-form">
          {isAdmin && (
            <div>
              <label htmlFor="token-kind">Kind</label>
              <select
                id="token-kind"
                value={kind}
                onChange={(e) => setKind(e.target.value as "org" | "user")}
              >
                <option value="org">Organization (every crew, every run)</option>
                <option value="user">Personal (my runs only)</option>
              </select>
            </div>
          )}
          <div>
            <label htmlFor="token-label">Label</label>
            <input
              id="token-label"
              value={label}
              onChange={(e) => setLabel(e.target.value)}
              placeholder="e.g. CI pipeline"
            />
          </div>
          <button type="submit" className="primary" disabled={create.isPending}>
            Create token
          </button>
        </form>
      )}
      <ErrorText>{create.error?.message}</ErrorText>
      {created && (
        <div className="secret-once" role="status">
          <p>Copy this token now — it is not shown again:</p>
          <code data-testid="new-token">{created}</code>{" "}
          <button
            type="button"
            onClick={async () => {
              await navigator.clipboard.writeText(created);
              setCopied(true);
            }}
          >
            {copied ? "Copied" : "Copy"}
          </button>
        </div>
      )}
      <ErrorText>{error?.message}</ErrorText>
      {isPending && <p className="muted">Loading…</p>}
      {data && data.tokens.length === 0 && <p className="muted">No tokens yet.</p>}
      {data && data.tokens.length > 0 && (
        <div className="table-wrap">
          <table aria-label="API tokens">
            <thead>
              <tr>
                <th scope="col">Token</th>
                <th scope="col">Kind</th>
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
                  <td>{t.kind === "org" ? "organization" : `personal (${t.email})`}</td>
                  <td>{t.label ?? ""}</td>
                  <td>{t.last_used_at ? new Date(t.last_used_at).toLocaleString() : "never"}</td>
                  <td>
                    {t.revoked_at ? (
                      <span className="muted">revoked</span>
                    ) : (
                      <button
                        type="button"
                        onClick={() => revoke.mutate(t.id)}
                        aria-label={`Revoke ${t.prefix}`}
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
