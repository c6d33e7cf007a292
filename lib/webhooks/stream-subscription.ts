import { seal, unseal } from "@/lib/config/encryption";
import type { StreamWebhooks } from "@/lib/contract/webhook-subscription";
import type { StreamSubscription } from "@/lib/run-model/types";

// A kickoff's `webhooks` object as the run keeps it: the token sealed like every stored secret,
// so the executions table and its backups never hold it in clear.

export function streamSubscription(w: StreamWebhooks): StreamSubscription {
  return {
    url: w.url,
    events: [...new Set(w.events)],
    realtime: w.realtime,
    ...(w.authentication ? { auth_sealed: seal(`Bearer ${w.authentication.token}`) } : {}),
  };
}

/** The Authorization header a delivery carries, if its subscription gave a token. */
export const authorizationOf = (sealed: string | null | undefined): Record<string, string> =>
  sealed ? { authorization: unseal(sealed) } : {};
