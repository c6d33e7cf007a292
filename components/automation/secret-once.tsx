"use client";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import type { Trigger } from "@/lib/api/client";

/** Where deliveries go: the server's idea of its address, or this page's when it only knows localhost. */
export function deliveryAddress(t: Trigger) {
  if (typeof window === "undefined" || !/^https?:\/\/localhost[:/]/.test(t.url)) return t.url;
  return window.location.origin + new URL(t.url).pathname;
}

const HOW: Record<Trigger["signature"], string> = {
  standard:
    "The sender signs each delivery with this secret (webhook-id, webhook-timestamp, webhook-signature headers); deliveries more than 5 minutes old are refused.",
  github:
    "In the repository's Settings → Webhooks → Add webhook: paste the address as Payload URL, choose application/json, paste the secret, and pick the events.",
  shared:
    "The sender sends the secret as Authorization: Bearer <secret> and, to be deduplicated, an Idempotency-Key.",
};

/** A new (or rotated) secret with the address to post to: shown once, to copy now. */
export function SecretOnce({
  trigger,
  onDone,
}: {
  trigger: Trigger & { secret: string };
  onDone: () => void;
}) {
  const address = deliveryAddress(trigger);
  return (
    <div className="grid gap-4 text-sm">
      <div className="grid gap-1">
        <span className="font-medium">Address</span>
        <div className="flex items-start gap-2">
          <code className="min-w-0 flex-1 break-all rounded-md bg-muted p-2 font-mono text-xs">
            {address}
          </code>
          <CopyButton text={address} what="address" />
        </div>
      </div>
      <div className="grid gap-1">
        <span className="font-medium">Secret</span>
        <div className="flex items-start gap-2">
          <code
            data-testid="trigger-secret"
            className="min-w-0 flex-1 break-all rounded-md bg-muted p-2 font-mono text-xs"
          >
            {trigger.secret}
          </code>
          <CopyButton text={trigger.secret} what="secret" />
        </div>
      </div>
      <Alert tone="warning">
        Copy the secret now: it is not shown again. (Rotate it to get a new one.)
      </Alert>
      <p className="m-0 text-muted-foreground">{HOW[trigger.signature]}</p>
      <Button variant="primary" className="justify-self-start" onClick={onDone}>
        Done
      </Button>
    </div>
  );
}
