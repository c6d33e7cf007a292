import { env } from "@/lib/config/env";
import { dataDirSecret } from "@/lib/config/secrets";
import { newSigningSecret } from "./signing";

/** WEBHOOK_SECRET, or one generated once into DATA_DIR and reused. */
export function webhookSecret(): string {
  return env().WEBHOOK_SECRET ?? dataDirSecret("webhook-secret", newSigningSecret);
}
