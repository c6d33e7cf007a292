"use client";

import { useState } from "react";
import { ErrorText } from "@/components/error-text";
import { settingsApi } from "@/lib/api/client";

/** The webhook signing secret, fetched only when an administrator asks to see it. */
export function SecretSection() {
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  return (
    <section className="card" aria-labelledby="secret-title">
      <h2 id="secret-title" style={{ marginTop: 0 }}>
        Webhook signing secret
      </h2>
      <p className="muted small">
        Receivers verify the <code>webhook-signature</code> header with it (Standard Webhooks). Set{" "}
        <code>WEBHOOK_SECRET</code> to choose it; otherwise it is generated into the data folder.
      </p>
      {secret ? (
        <code data-testid="webhook-secret">{secret}</code>
      ) : (
        <button
          type="button"
          onClick={() =>
            settingsApi
              .webhookSecret()
              .then((r) => setSecret(r.secret))
              .catch((e: Error) => setError(e.message))
          }
        >
          Reveal
        </button>
      )}
      <ErrorText>{error}</ErrorText>
    </section>
  );
}
