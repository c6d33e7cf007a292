"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ErrorText } from "@/components/error-text";
import { settingsApi } from "@/lib/api/client";

/** Webhook deliveries with every attempt; failed ones can be sent again. */
export function DeliveriesSection() {
  const qc = useQueryClient();
  const [status, setStatus] = useState("");
  const { data, error, isPending } = useQuery({
    queryKey: ["deliveries", status],
    queryFn: () => settingsApi.deliveries({ status: status || undefined }),
    refetchInterval: 5_000,
  });
  const redeliver = useMutation({
    mutationFn: settingsApi.redeliver,
    onSuccess: () => qc.invalidateQueries({ queryKey: ["deliveries"] }),
  });
  return (
    <section className="card" aria-labelledby="deliveries-title">
      <h2 id="deliveries-title" style={{ marginTop: 0 }}>
        Webhook deliveries
      </h2>
      <label htmlFor="delivery-status">Show</label>
      <select
        id="delivery-status"
        value={status}
        onChange={(e) => setStatus(e.target.value)}
        style={{ maxWidth: "14rem" }}
      >
        <option value="">all</option>
        <option value="pending">pending (retrying)</option>
        <option value="failed">failed</option>
        <option value="succeeded">succeeded</option>
      </select>
      <ErrorText>{error?.message}</ErrorText>
      <ErrorText>{redeliver.error?.message}</ErrorText>
      {isPending && <p className="muted">Loading…</p>}
      {data && data.deliveries.length === 0 && (
        <p className="muted">No deliveries yet. Give webhook URLs at kickoff to receive events.</p>
      )}
      {data && data.deliveries.length > 0 && (
        <div className="table-wrap">
          <table aria-label="Webhook deliveries">
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">URL</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.deliveries.map((d) => (
                <tr key={d.id}>
                  <td>{d.kind}</td>
                  <td className="url">{d.url}</td>
                  <td>
                    <span
                      className={`status status-${d.status === "succeeded" ? "completed" : d.status === "failed" ? "error" : "running"}`}
                    >
                      {d.status}
                    </span>
                  </td>
                  <td>
                    <details>
                      <summary>
                        {d.attempts}{" "}
                        {d.last_status_code
                          ? `(last ${d.last_status_code})`
                          : d.last_error
                            ? `(${d.last_error})`
                            : ""}
                      </summary>
                      <ul>
                        {d.attempts_log.map((a) => (
                          <li key={a.attempt}>
                            #{a.attempt} {new Date(a.started_at).toLocaleString()} —{" "}
                            {a.status_code ?? a.error} in {a.latency_ms} ms
                          </li>
                        ))}
                      </ul>
                    </details>
                  </td>
                  <td>
                    {d.status === "failed" && (
                      <button type="button" onClick={() => redeliver.mutate(d.id)}>
                        Redeliver
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
