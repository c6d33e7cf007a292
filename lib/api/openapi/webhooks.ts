// The webhooks Crewdeck sends, as the document's top-level `webhooks`: each event's body schema
// is a component of lib/contract/webhooks.ts.

export function webhookOperations() {
  return Object.fromEntries(
    (
      [
        [
          "step",
          "StepWebhook",
          "After each agent thought or action (to `stepWebhookUrl`). Per endpoint, in sequence order.",
        ],
        [
          "task",
          "TaskWebhook",
          "After each task completes, and when a task awaits review (`requires_review: true`) (to `taskWebhookUrl`).",
        ],
        [
          "crew",
          "CrewWebhook",
          "When the execution completes, fails or is stopped (to `crewWebhookUrl`).",
        ],
        [
          "stream",
          "StreamWebhook",
          "The events listed in the kickoff's `webhooks.events` (to `webhooks.url`, with `Authorization: Bearer <token>` when `authentication` is given): one per POST with `realtime: true`, otherwise batched (up to a second, and while an earlier batch is still being sent). Per endpoint, in sequence order; the subscription lasts the whole run.",
        ],
      ] as const
    ).map(([name, ref, description]) => [
      name,
      {
        post: {
          summary: `${name} event`,
          description: `${description}${name === "stream" ? "" : " URLs given at kickoff apply until the first pause for review; from each /resume on, only the URLs given in that resume."} Signed per Standard Webhooks: \`webhook-id\` (stable across retries: deduplicate on it), \`webhook-timestamp\`, \`webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">\`. Answer 2xx within 15 s; other answers are retried (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h); 410 stops the endpoint; 429/503 Retry-After is honoured; redirects are not followed.`,
          requestBody: {
            content: { "application/json": { schema: { $ref: `#/components/schemas/${ref}` } } },
          },
          responses: { 200: { description: "Received (any 2xx)." } },
        },
      },
    ]),
  );
}
