import {
  A2A_ERROR_CODE,
  type A2AError,
  JsonRpcTransportError,
  RequestMalformedError,
  UnsupportedOperationError,
} from "@a2a-js/sdk/errors";
import { z } from "zod";
import type { AppError } from "@/lib/errors";

// Our errors as the SDK's A2A errors, which its JSON-RPC handler turns into error answers, and
// the HTTP status each answer goes with (200 but for a refusal or a limit, as before the SDK).

/** A JSON-RPC error the SDK has no class for (-32600 for a refusal or a limit), sent as is. */
export const envelopeError = (code: number, message: string) =>
  new JsonRpcTransportError({ jsonrpc: "2.0", id: null, error: { code, message } });

/** The SDK's error for one of ours, and the HTTP status its answer takes. */
export function a2aErrorOf(err: AppError): { error: A2AError; status: number } {
  if (err.status === 403)
    return { error: envelopeError(A2A_ERROR_CODE.INVALID_REQUEST, err.message), status: 403 };
  if (err.status === 409) return { error: new UnsupportedOperationError(err.message), status: 200 };
  if (err.status === 400 || err.status === 404 || err.status === 422)
    return { error: invalidParams(err.message, fieldErrorsOf(err.details)), status: 200 };
  return {
    error: envelopeError(A2A_ERROR_CODE.INVALID_REQUEST, err.message),
    status: err.status,
  };
}

type Issue = { path: string; message: string };

/** InvalidParams (-32602), each field's complaint in the ErrorInfo's metadata. */
function invalidParams(message: string, issues: Issue[]) {
  const metadata = Object.fromEntries(issues.map((i) => [i.path || "(params)", i.message]));
  return new RequestMalformedError({ message, metadata });
}

const FieldErrors = z.object({
  errors: z.array(z.object({ path: z.string(), message: z.string() })),
});

const fieldErrorsOf = (details: Record<string, unknown>): Issue[] =>
  FieldErrors.safeParse(details).data?.errors ?? [];

/** Params read through our schema: the limits and messages the SDK's parsing does not have. */
export function paramsOf<T>(schema: z.ZodType<T>, params: unknown): T {
  const parsed = schema.safeParse(params ?? {});
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
  throw invalidParams(`Invalid params: ${issues[0]?.path} ${issues[0]?.message}`, issues);
}
