import { errors, type FieldError } from "@/lib/errors";
import { checkWebhookUrl, RefusedUrlError } from "./ssrf";

type UrlFields = {
  taskWebhookUrl?: string;
  stepWebhookUrl?: string;
  crewWebhookUrl?: string;
  webhooks?: { url: string };
};

/** 400 naming each webhook URL this server may not call, and why. */
export async function assertWebhookUrlsAllowed(fields: UrlFields) {
  const problems: FieldError[] = [];
  const urls: [string, string | undefined][] = [
    ["taskWebhookUrl", fields.taskWebhookUrl],
    ["stepWebhookUrl", fields.stepWebhookUrl],
    ["crewWebhookUrl", fields.crewWebhookUrl],
    ["webhooks.url", fields.webhooks?.url],
  ];
  for (const [field, url] of urls) {
    if (!url) continue;
    try {
      await checkWebhookUrl(url);
    } catch (err) {
      if (!(err instanceof RefusedUrlError)) throw err;
      problems.push({ path: field, message: `refused: ${err.message}` });
    }
  }
  if (problems.length) {
    throw errors.badRequest(
      `Webhook URL refused: ${problems.map((p) => `${p.path}: ${p.message}`).join("; ")}`,
      problems,
    );
  }
}
