import { z } from "zod";
import type { Concurrency } from "@/lib/contract/crew";
import type { CrewDef } from "@/lib/crew/schema";
import { type AppError, errorMessage, type FieldError } from "@/lib/errors";
import { parseJsonText } from "@/lib/http/read-json";
import { applyMapping } from "./payload-mapping";
import type { TriggerRow } from "./store";
import type { TriggerOutcome } from "./throttle";

// The decisions of a delivery (lib/triggers/receive.ts) that need no database: what it is
// refused with, and the run it asks for.

type Answer = {
  status: number;
  outcome: TriggerOutcome;
  detail: string;
  errors?: FieldError[];
};
export type Received =
  | { ok: true; kickoffId: string; eventId: string; duplicate: boolean }
  | { ok: false; answer: Answer; headers?: Record<string, string> };
export type Refused = Extract<Received, { ok: false }>;

export const refuse = (
  status: number,
  outcome: TriggerOutcome,
  detail: string,
  fieldErrors?: FieldError[],
): Refused => ({
  ok: false,
  answer: { status, outcome, detail, ...(fieldErrors ? { errors: fieldErrors } : {}) },
});

export type PlannedRun<C = CrewDef> = {
  crew: C;
  inputs: Record<string, unknown>;
  concurrency: Concurrency | null;
};

/**
 * The run a delivery asks for: its payload read as JSON, the trigger's crew (loaded), the payload
 * mapped to inputs and a concurrency key. Or the refusal of the first that fails.
 */
export function planRun<C = CrewDef>(
  t: TriggerRow,
  crew: C | undefined,
  body: Buffer,
  headers: Record<string, string>,
): PlannedRun<C> | Refused {
  let payload: unknown = null;
  try {
    payload = body.length ? parseJsonText(body.toString("utf8"), "The payload") : null;
  } catch (err) {
    return refuse(400, "invalid", errorMessage(err));
  }
  if (!crew)
    return refuse(
      409,
      "refused",
      `The crew '${t.crew}' is not loaded (removed, or its files are broken).`,
    );
  const mapped = mapDelivery(t, payload, headers);
  if ("errors" in mapped)
    return refuse(422, "invalid", "The payload does not map to the crew's inputs.", mapped.errors);
  return { crew, ...mapped };
}

const RefusalDetails = z.object({
  errors: z
    .array(z.looseObject({ path: z.string(), message: z.string() }))
    .optional()
    .catch(undefined),
  missing_inputs: z.array(z.string()).optional().catch(undefined),
});

/** A run refused by the crew's inputs (missing, invalid) or the key's policy, as logged. */
export function refusalOf(err: AppError): Refused {
  const details = RefusalDetails.parse(err.details);
  const fieldErrors: FieldError[] = [
    ...(details.errors ?? []),
    ...(details.missing_inputs ?? []).map((name) => ({
      path: `inputs.${name}`,
      message: "required by the crew; map it or give it a fixed value",
    })),
  ];
  return refuse(
    err.status,
    err.status === 409 ? "refused" : "invalid",
    err.message,
    fieldErrors.length ? fieldErrors : undefined,
  );
}

/** The run's inputs (fixed, then mapped) and concurrency key from the payload, or what failed. */
export function mapDelivery(t: TriggerRow, payload: unknown, headers: Record<string, string>) {
  const mapped = applyMapping(t.mapping, payload, headers);
  const problems: FieldError[] = [...mapped.errors];
  let concurrency: Concurrency | null = null;
  if (t.concurrency) {
    const key = applyMapping({ key: t.concurrency.key }, payload, headers);
    const value = key.inputs.key;
    if (key.errors.length)
      problems.push(...key.errors.map((e) => ({ ...e, path: "concurrency.key" })));
    else if (value === undefined || value === null || value === "")
      problems.push({
        path: "concurrency.key",
        message: "The key's expression selected nothing in this payload.",
      });
    else
      concurrency = {
        key: (typeof value === "string" ? value : JSON.stringify(value)).slice(0, 200),
        policy: t.concurrency.policy,
      };
  }
  if (problems.length) return { errors: problems };
  return { inputs: { ...t.inputs, ...mapped.inputs }, concurrency };
}

// Credentials the sender sent never reach a mapping (and so never a run's inputs).
const SECRET_HEADERS = new Set(["authorization", "cookie", "x-webhook-secret"]);

export function readableHeaders(headers: Record<string, string>) {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !SECRET_HEADERS.has(name)));
}
