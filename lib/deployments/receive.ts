import { z } from "zod";
import { unseal } from "@/lib/config/encryption";
import type { Db } from "@/lib/db/types";
import { AppError, errors } from "@/lib/errors";
import { parseJsonText, readTextBody } from "@/lib/http/read-json";
import { fieldOf } from "@/lib/util/field";
import { isOneOf } from "@/lib/util/one-of";
import { verify } from "@/lib/webhooks/signing";
import { applyRemote } from "./apply-remote";
import { HOOK_KINDS, hookSecretMatches } from "./hooks";
import { pollSoon } from "./remote-runs";
import { mirrorRemoteLog } from "./sync";
import { fromWebhook } from "./translate";

const HOOK_BODY_LIMIT = 256 * 1024;

/**
 * A webhook from a remote deployment about one of our remote runs. Authenticated by the run's
 * secret in the URL (checked first, before any database work) and, when the deployment has a
 * signing secret, by its Standard Webhooks signature. Each event is stored once, however often
 * it is sent.
 */
export async function receiveRemoteHook({
  db,
  request,
  params,
}: {
  db: Db;
  request: Request;
  params: { deployment: string; run: string; kind: string };
}) {
  const notFound = () => errors.notFound("No such webhook receiver.");
  const kind = params.kind;
  if (!isOneOf(HOOK_KINDS, kind)) throw notFound();
  if (!z.uuid().safeParse(params.run).success) throw notFound();
  const secret = new URL(request.url).searchParams.get("t") ?? "";
  if (!secret || !hookSecretMatches(params.run, secret))
    throw errors.unauthorized("The secret in this webhook URL is wrong for this run.");
  const text = await readTextBody(request, HOOK_BODY_LIMIT);

  const { rows } = await db.query(
    `SELECT d.webhook_secret_sealed, e.remote->>'kind' AS kind FROM executions e JOIN deployments d ON d.id = e.deployment_id
      WHERE e.id = $1 AND d.slug = $2`,
    [params.run, params.deployment],
    z.object({ webhook_secret_sealed: z.string().nullable(), kind: z.string().nullable() }),
  );
  const run = rows[0];
  if (!run) throw notFound();
  if (run.webhook_secret_sealed) {
    const check = verify({
      secret: unseal(run.webhook_secret_sealed),
      headers: request.headers,
      body: text,
    });
    if (!check.ok)
      throw new AppError(
        "bad-signature",
        401,
        `The webhook signature does not verify: ${check.reason}.`,
      );
  }
  let body: unknown = text;
  try {
    body = parseJsonText(text, "The webhook body");
  } catch (err) {
    // Not JSON: kept as the text it is. JSON too deep or with a string the database cannot
    // store (NUL, lone surrogate) is refused with the reason, as is such text.
    if (!(err instanceof AppError) || err.code !== "malformed-json") throw err;
    if (text.includes("\u0000"))
      throw errors.badRequest("The webhook body contains a NUL character, which cannot be stored.");
  }
  // From a remote Crewdeck (its bodies carry their place in its log) the webhook is a doorbell:
  // the log is copied from where we are, so events stay in the remote's order, none skipped —
  // a crew webhook can overtake the last step's. The body itself is stored only if that fails.
  if (run.kind !== "other" && typeof fieldOf(body, "sequence") === "number") {
    const mirrored = await mirrorRemoteLog(db, params.run).catch(() => null);
    if (mirrored !== null) return { stored: "mirrored" };
  }
  const event = fromWebhook(kind, body, request.headers.get("webhook-id"));
  const applied = await applyRemote(db, params.run, { events: [event], stateFromEvents: true });
  // Task and crew notifications change the run's state: have the poller look now.
  if (params.kind !== "step") await pollSoon(db, params.run);
  return { stored: applied?.events.length ?? 0 };
}
