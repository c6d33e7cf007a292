"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ErrorText } from "@/components/error-text";
import { type ConnectionCheck, deploymentsApi } from "@/lib/api/client";

const EMPTY = { name: "", base_url: "", token: "", webhook_secret: "" };

/** Remote deployments: crews served elsewhere, started and reviewed from this dashboard. */
export function DeploymentsSection() {
  const qc = useQueryClient();
  const { data, error, isPending } = useQuery({
    queryKey: ["deployments"],
    queryFn: deploymentsApi.list,
  });
  const [form, setForm] = useState(EMPTY);
  const [checks, setChecks] = useState<Record<string, ConnectionCheck>>({});
  const refresh = () => qc.invalidateQueries({ queryKey: ["deployments"] });
  const test = useMutation({
    mutationFn: deploymentsApi.test,
    onSuccess: (check, slug) => setChecks((c) => ({ ...c, [slug]: check })),
  });
  const create = useMutation({
    mutationFn: () => deploymentsApi.create(form),
    onSuccess: (d) => {
      setForm(EMPTY);
      refresh();
      test.mutate(d.slug); // a new deployment is tested at once: most mistakes show here
    },
  });
  const remove = useMutation({ mutationFn: deploymentsApi.remove, onSuccess: refresh });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  const field = (name: keyof typeof EMPTY) => ({
    id: `deployment-${name}`,
    value: form[name],
    onChange: (e: { target: { value: string } }) =>
      setForm((f) => ({ ...f, [name]: e.target.value })),
  });

  return (
    <section className="card" aria-labelledby="deployments-title">
      <h2 id="deployments-title" style={{ marginTop: 0 }}>
        Deployments
      </h2>
      <p className="muted small">
        Crews served elsewhere — another Crewdeck (<code>…/api/crews/&lt;crew&gt;</code>) or a
        CrewAI deployment. They appear under Crews; their runs report back by webhook and by
        polling.
      </p>
      {isPending && <p className="muted">Loading…</p>}
      {data && data.deployments.length === 0 && <p className="muted">No deployments yet.</p>}
      {data && data.deployments.length > 0 && (
        <ul className="list-plain">
          {data.deployments.map((d) => {
            const check = checks[d.slug];
            return (
              <li key={d.id}>
                <div>
                  <a href={`/crews/@${d.slug}`}>
                    <strong>{d.name}</strong>
                  </a>{" "}
                  <code className="small">{d.base_url}</code>
                  {check?.ok && (
                    <p role="status" className="small">
                      Connected · inputs: {check.inputs.join(", ") || "(none)"}
                    </p>
                  )}
                  {check && !check.ok && (
                    <p role="alert" className="form-error small">
                      {check.reason}
                    </p>
                  )}
                </div>
                <div className="actions">
                  <button
                    type="button"
                    onClick={() => test.mutate(d.slug)}
                    disabled={test.isPending && test.variables === d.slug}
                  >
                    {test.isPending && test.variables === d.slug ? "Testing…" : "Test connection"}
                  </button>
                  <button
                    type="button"
                    onClick={() => {
                      if (confirm(`Remove ${d.name} and the record of its runs here?`))
                        remove.mutate(d.slug);
                    }}
                  >
                    Remove
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <form onSubmit={submit} aria-label="Add a deployment">
        <h3>Add a deployment</h3>
        <label htmlFor="deployment-name">Name</label>
        <input {...field("name")} required maxLength={100} placeholder="Research (staging)" />
        <label htmlFor="deployment-base_url">Base URL</label>
        <input
          {...field("base_url")}
          type="url"
          required
          placeholder="https://crews.example.com/api/crews/research-brief"
        />
        <label htmlFor="deployment-token">Bearer token</label>
        <input {...field("token")} type="password" autoComplete="off" required />
        <label htmlFor="deployment-webhook_secret">Webhook signing secret (optional)</label>
        <input
          {...field("webhook_secret")}
          type="password"
          autoComplete="off"
          placeholder="whsec_… — then unsigned webhooks are refused"
        />
        <p className="muted small">Tokens are stored encrypted and never shown again.</p>
        <button type="submit" className="primary" disabled={create.isPending}>
          {create.isPending ? "Adding…" : "Add deployment"}
        </button>
      </form>
      {(create.error || error || remove.error || test.error) && (
        <ErrorText>{(create.error ?? error ?? remove.error ?? test.error)?.message}</ErrorText>
      )}
    </section>
  );
}
