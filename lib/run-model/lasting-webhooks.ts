import type { WebhookUrls } from "./types";

/**
 * The subscriptions that last a run's whole life: the kickoff's `webhooks` stream and an A2A
 * client's push endpoints. (The task, step and crew URLs are given again at each resume.)
 */
export function lastingWebhooks(w: WebhookUrls): WebhookUrls {
  return {
    ...(w.stream ? { stream: w.stream } : {}),
    ...(w.a2a?.length ? { a2a: w.a2a } : {}),
  };
}
