import { A2A_ERROR_CODE, VersionNotSupportedError } from "@a2a-js/sdk/errors";
import { JsonRpcTransportHandler, ServerCallContext } from "@a2a-js/sdk/server";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { acquireStreamSlot } from "@/lib/http/rate-limit";
import { readJsonBody } from "@/lib/http/read-json";
import { A2A_VERSION } from "./card";
import { a2aErrorOf, envelopeError, paramsOf } from "./errors";
import { type Caller, PARAMS } from "./params";
import { RunsRequestHandler } from "./runs-handler";
import { sseOf } from "./stream";

// The JSON-RPC binding of A2A 1.0 at /api/a2a/{crew} (and /api/a2a, where a message names its
// crew in metadata.crew), served by the SDK's JsonRpcTransportHandler over our runs
// (runs-handler.ts): the SDK dispatches the method, converts params and results between
// ProtoJSON and its types, and turns A2A errors into JSON-RPC errors.
// Hand-written here, because the SDK has none of it (or answers otherwise):
// - the body's size limit and its parse error (413, 400 with -32700), before the SDK sees it;
// - a body that is no JSON-RPC 2.0 request: -32600 and 400 (the SDK: -32602, and it fails on
//   `null`); the envelope read here is what the checks below need;
// - the A2A-Version check on major.minor and the refusal of 0.3's method names (-32009);
// - an unknown method: -32601 with its name, params or none;
// - our params schemas (limits and messages, params.ts) before the SDK's lenient parsing;
// - HTTP statuses other than 200 (a refusal 403, a stream limit 429), and unexpected errors
//   rethrown (a logged 500) where the SDK would answer with their message;
// - the SSE response a stream's answers are written to (stream slots, heartbeat: lib/http/sse);
// - DeleteTaskPushNotificationConfig's `{}`.

// A version is matched on major.minor, as the specification asks: 1.0.2 is 1.0.
export const majorMinor = (version: string) => version.trim().split(".").slice(0, 2).join(".");

// 0.3's method names: a client that sends them speaks 0.3, which this agent does not.
const LEGACY = new Set(["message/send", "message/stream", "tasks/get", "tasks/cancel"]);

const STREAMING = new Set(["SendStreamingMessage", "SubscribeToTask"]);

/** A JSON-RPC 2.0 request, as far as our checks read it (the SDK reads it again). */
const Envelope = z.looseObject({
  jsonrpc: z.literal("2.0"),
  id: z.union([z.string(), z.number(), z.null()]).optional(),
  method: z.string().min(1),
  params: z.unknown().optional(),
});

type RpcId = string | number | null;

const rpcError = (id: RpcId, error: object, status = 200) =>
  Response.json({ jsonrpc: "2.0", id, error }, { status });

/** Answers one JSON-RPC request to an A2A endpoint for this caller. */
export async function handleA2a(caller: Caller): Promise<Response> {
  const { request } = caller;
  let body: unknown;
  try {
    body = await readJsonBody(request, 1024 * 1024);
  } catch (err) {
    const tooBig = err instanceof AppError && err.status === 413;
    const message = err instanceof Error ? err.message : "not JSON";
    return rpcError(
      null,
      tooBig
        ? { code: A2A_ERROR_CODE.INVALID_REQUEST, message }
        : { code: A2A_ERROR_CODE.PARSE_ERROR, message: `Parse error: ${message}` },
      tooBig ? 413 : 400,
    );
  }
  const version =
    request.headers.get("a2a-version") ?? new URL(request.url).searchParams.get("A2A-Version");
  // Refused as JSON-RPC 2.0 says (-32600), where the SDK answers -32602 (and fails on `null`).
  const envelope = Envelope.safeParse(body);
  if (!envelope.success)
    return rpcError(
      null,
      {
        code: A2A_ERROR_CODE.INVALID_REQUEST,
        message: 'Not a JSON-RPC 2.0 request: {jsonrpc: "2.0", id, method, params}.',
      },
      400,
    );
  const { id = null, method, params } = envelope.data;
  const refused = precheck(method, params, version);
  if (refused) return rpcError(id, JsonRpcTransportHandler.mapToJSONRPCError(refused));
  return answer(caller, envelope.data, id, method);
}

/** Our refusal of a request the SDK would take: another A2A version, or params past our limits. */
export function precheck(method: string, params: unknown, version: string | null) {
  if (LEGACY.has(method) || (version && majorMinor(version) !== A2A_VERSION))
    return new VersionNotSupportedError(
      `This agent speaks A2A ${A2A_VERSION} only: send the header A2A-Version: ${A2A_VERSION} and its method names (SendMessage, GetTask…).`,
    );
  const schema = PARAMS.get(method);
  // -32601 whatever the params (the SDK answers -32602 to an unknown method without them).
  if (!schema)
    return envelopeError(A2A_ERROR_CODE.METHOD_NOT_FOUND, `Method not found: ${method}.`);
  try {
    paramsOf(schema, params);
  } catch (err) {
    return err;
  }
  return undefined;
}

async function answer(
  caller: Caller,
  body: Record<string, unknown>,
  id: RpcId,
  method: string,
): Promise<Response> {
  const handler = new RunsRequestHandler(caller);
  const sdk = new JsonRpcTransportHandler(handler);
  let slot: (() => void) | undefined;
  try {
    // A stream holds a slot from before its run starts (429 past the caller's limit).
    if (STREAMING.has(method)) slot = acquireStreamSlot(caller.principal);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const { error, status } = a2aErrorOf(err);
    return rpcError(id, JsonRpcTransportHandler.mapToJSONRPCError(error), status);
  }
  const release = () => {
    slot?.();
    slot = undefined;
  };
  try {
    const answered = await sdk.handle(body, new ServerCallContext());
    if (handler.failure) throw handler.failure;
    if ("jsonrpc" in answered) {
      release();
      return Response.json(emptyDeleted(method, answered), { status: handler.status });
    }
    // A stream's first answer is read before the response starts: a refusal is a plain answer.
    const first = await answered.next().catch((err: unknown) => {
      if (handler.failure) throw handler.failure;
      return { done: true, error: JsonRpcTransportHandler.mapToJSONRPCError(err) } as const;
    });
    if (first.done) {
      release();
      return rpcError(id, "error" in first ? first.error : noEvents, handler.status);
    }
    const held = slot ?? (() => {});
    slot = undefined; // the stream's now: released when it ends
    return sseOf(caller, first.value, answered, held, () => handler.stop.abort());
  } catch (err) {
    release();
    throw err;
  }
}

const noEvents = { code: A2A_ERROR_CODE.INTERNAL_ERROR, message: "The stream ended at once." };

// A2A 1.0 answers DeleteTaskPushNotificationConfig with Empty, `{}` in ProtoJSON; the SDK, null.
function emptyDeleted<T extends { result?: unknown; error?: unknown }>(method: string, answer: T) {
  const deleted = method === "DeleteTaskPushNotificationConfig" && answer.result === null;
  return deleted && !answer.error ? { ...answer, result: {} } : answer;
}
