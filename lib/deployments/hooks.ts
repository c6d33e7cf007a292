import { derivedSecret, derivedSecretMatches } from "@/lib/config/encryption";
import { publicUrl } from "@/lib/config/public-url";

export const HOOK_KINDS = ["task", "step", "crew"] as const;
export type HookKind = (typeof HOOK_KINDS)[number];

/**
 * The secret in a run's webhook URLs: derived from the server's key and the run, so the same URLs
 * can be sent again with every resume and nothing needs storing.
 */
const hookSecret = (runId: string) => derivedSecret(`remote-run-hooks:${runId}`);

// Under any key still held: URLs handed out before a key rotation keep working.
export const hookSecretMatches = (runId: string, given: string) =>
  derivedSecretMatches(`remote-run-hooks:${runId}`, given);

/** The three webhook URLs sent with kickoff and, again, with every resume (the seed's rule). */
export function hookUrls(deploymentSlug: string, runId: string) {
  const secret = hookSecret(runId);
  const url = (kind: HookKind) =>
    `${publicUrl()}/api/hooks/${encodeURIComponent(deploymentSlug)}/${runId}/${kind}?t=${secret}`;
  return { taskWebhookUrl: url("task"), stepWebhookUrl: url("step"), crewWebhookUrl: url("crew") };
}
