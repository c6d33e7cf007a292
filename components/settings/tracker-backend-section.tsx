"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ErrorText } from "@/components/error-text";
import { trackerSettingsApi } from "@/lib/api/client";

/** Which tracker agents use — the embedded one or Linear — and a check that it answers. */
export function TrackerBackendSection() {
  const qc = useQueryClient();
  const { data, error } = useQuery({
    queryKey: ["tracker-settings"],
    queryFn: trackerSettingsApi.get,
  });
  const [choice, setChoice] = useState<"embedded" | "linear" | null>(null);
  const [key, setKey] = useState("");
  const backend = choice ?? data?.backend ?? "embedded";
  const save = useMutation({
    mutationFn: () => trackerSettingsApi.save(backend, key || undefined),
    onSuccess: () => {
      setKey("");
      qc.invalidateQueries({ queryKey: ["tracker-settings"] });
    },
  });
  const test = useMutation({ mutationFn: trackerSettingsApi.test });
  const fromEnv = data?.source === "environment";
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <section className="card" aria-labelledby="tracker-backend-title">
      <h2 id="tracker-backend-title" style={{ marginTop: 0 }}>
        Issue tracker
      </h2>
      {fromEnv ? (
        <p>
          Linear, set by <code>LINEAR_API_KEY</code> in the environment.
        </p>
      ) : (
        <form onSubmit={submit}>
          <fieldset className="choices">
            <legend>Agents file issues in</legend>
            <label>
              <input
                type="radio"
                name="backend"
                value="embedded"
                checked={backend === "embedded"}
                onChange={() => setChoice("embedded")}
              />{" "}
              the embedded tracker
            </label>
            <label>
              <input
                type="radio"
                name="backend"
                value="linear"
                checked={backend === "linear"}
                onChange={() => setChoice("linear")}
              />{" "}
              Linear
            </label>
          </fieldset>
          {backend === "linear" && (
            <>
              <label htmlFor="linear-key">Linear API key</label>
              <input
                id="linear-key"
                type="password"
                autoComplete="off"
                value={key}
                onChange={(e) => setKey(e.target.value)}
                placeholder={
                  data?.linear_key_saved
                    ? `saved (${data.linear_key_hint}); type to replace`
                    : "lin_api_…"
                }
              />
              <p className="muted small">Stored encrypted; never shown again.</p>
            </>
          )}
          <button type="submit" className="primary" disabled={save.isPending}>
            Save
          </button>
        </form>
      )}
      <div className="actions">
        <button type="button" onClick={() => test.mutate()} disabled={test.isPending}>
          {test.isPending ? "Testing…" : "Test connection"}
        </button>
        {test.data?.ok && (
          <span role="status">
            Connected ({test.data.backend}): teams {test.data.teams?.join(", ")}
          </span>
        )}
        {test.data && !test.data.ok && (
          <span role="alert" className="form-error">
            {test.data.error?.message}
          </span>
        )}
      </div>
      {(save.error || error || test.error) && (
        <ErrorText>{(save.error ?? error ?? test.error)?.message}</ErrorText>
      )}
    </section>
  );
}
