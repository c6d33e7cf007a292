// POST /api/triggers/{id} — a delivery from someone else's system (a signed webhook): its payload,
// mapped to the crew's inputs, starts a run. The signature is the credential (lib/triggers).
import * as automationApi from "@/lib/api/endpoints/automation";
import { noCaller, route } from "@/lib/api/route";
import { clientAddress } from "@/lib/auth/client-address";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { readBodyBytes } from "@/lib/http/read-json";
import { json } from "@/lib/http/respond";
import { receiveDelivery } from "@/lib/triggers/receive";
import { triggerLimits } from "@/lib/triggers/throttle";

export const dynamic = "force-dynamic";

const BODY_LIMIT_BYTES = 1024 * 1024;

export const POST = route(
  automationApi.deliverToTrigger,
  async ({ request, params }) => {
    // An address whose signatures keep failing is refused before its body is read.
    const address = clientAddress(request.headers);
    const now = new Date();
    const wait = triggerLimits.unsignedWait(address, now);
    if (wait !== null)
      throw new AppError(
        "limited",
        429,
        `Too many deliveries from this address failed their signature this minute; retry in ${wait} s.`,
        {},
        { "retry-after": String(wait) },
      );
    const headers = Object.fromEntries(
      [...request.headers].map(([name, value]) => [name.toLowerCase(), value]),
    );
    const body = request.body ? await readBodyBytes(request, BODY_LIMIT_BYTES) : Buffer.alloc(0);
    const r = await receiveDelivery(await getDb(), {
      triggerId: params.id,
      headers,
      body,
      now,
    }).catch((err: unknown) => {
      // No such trigger costs the same reading: counted as a failed signature.
      if (err instanceof AppError && err.status === 404)
        triggerLimits.failedSignature(address, now);
      throw err;
    });
    if (!r.ok && r.answer.outcome === "unauthorized") triggerLimits.failedSignature(address, now);
    if (!r.ok) {
      const { status, outcome, detail, errors } = r.answer;
      throw new AppError(outcome, status, detail, errors ? { errors } : {}, r.headers ?? {});
    }
    // A redelivery answers as the first did, with the same run: the sender may stop retrying.
    return json(
      { kickoff_id: r.kickoffId, event_id: r.eventId, duplicate: r.duplicate },
      { status: r.duplicate ? 200 : 202 },
    );
  },
  noCaller,
);
