"use client";

import { useMutation } from "@tanstack/react-query";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { settingsApi } from "@/lib/api/client";
import { SettingsSection } from "./kit/section";
import { SecretOnce } from "./secret-once";

/** The webhook signing secret, fetched only when an administrator asks to see it. */
export function SecretSection() {
  const reveal = useMutation({ mutationFn: settingsApi.webhookSecret });
  return (
    <SettingsSection
      id="secret"
      title="Webhook signing secret"
      gap="gap-3"
      description={
        <>
          Receivers verify the <code className="font-mono">webhook-signature</code> header with it
          (Standard Webhooks). Set <code className="font-mono">WEBHOOK_SECRET</code> to choose it;
          otherwise it is generated into the data folder.
        </>
      }
    >
      {reveal.data ? (
        <SecretOnce
          secret={reveal.data.secret}
          what="webhook secret"
          testId="webhook-secret"
          note="Shown until you leave this page: keep it in your receiver's secret store."
        />
      ) : (
        <div>
          <Button onClick={() => reveal.mutate()} disabled={reveal.isPending}>
            {reveal.isPending ? "Revealing…" : "Reveal secret"}
          </Button>
        </div>
      )}
      {reveal.error && <Alert tone="danger">{reveal.error.message}</Alert>}
    </SettingsSection>
  );
}
