import type { z } from "zod";
import { AppError } from "@/lib/errors";
import type { RpcId } from "./params";

// JSON-RPC errors as A2A 1.0 names them, and the answers that carry them.

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly status = 200,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export const CODES = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  taskNotFound: -32001,
  taskNotCancelable: -32002,
  pushNotSupported: -32003,
  unsupported: -32004,
  versionNotSupported: -32009,
};

export const reply = (id: RpcId, body: object, status = 200) =>
  Response.json({ jsonrpc: "2.0", id, ...body }, { status });

export const rpcErrorResponse = (id: RpcId, err: RpcError) =>
  reply(
    id,
    { error: { code: err.code, message: err.message, ...(err.data ? { data: err.data } : {}) } },
    err.status,
  );

/** Our errors as A2A's: bad input (or a crew that is not there) InvalidParams, a refusal 403. */
export function asRpcError(err: unknown): RpcError {
  if (err instanceof RpcError) return err;
  if (!(err instanceof AppError)) throw err;
  if (err.status === 403) return new RpcError(CODES.invalidRequest, err.message, 403);
  if (err.status === 409) return new RpcError(CODES.unsupported, err.message);
  if (err.status === 400 || err.status === 404 || err.status === 422)
    return new RpcError(CODES.invalidParams, err.message, 200, err.details);
  return new RpcError(CODES.invalidRequest, err.message, err.status);
}

export function paramsOf<T>(schema: z.ZodType<T>, params: unknown): T {
  const parsed = schema.safeParse(params ?? {});
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
  throw new RpcError(
    CODES.invalidParams,
    `Invalid params: ${issues[0]?.path} ${issues[0]?.message}`,
    200,
    {
      errors: issues,
    },
  );
}
