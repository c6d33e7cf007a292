import { AppError, errors } from "./problem";

/** Reads a body as text without ever holding more than `limitBytes` of it; 413 past the limit. */
export async function readTextBody(request: Request, limitBytes: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (declared > limitBytes) throw errors.tooLarge(limitBytes);
  if (!request.body) throw errors.badRequest("The request body is empty; send a JSON object.");

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limitBytes) {
      await reader.cancel().catch(() => {});
      throw errors.tooLarge(limitBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Reads and parses a JSON body within `limitBytes`: 413 past it, 400 for empty or malformed. */
export async function readJsonBody(request: Request, limitBytes: number): Promise<unknown> {
  const text = await readTextBody(request, limitBytes);
  if (!text.trim()) throw errors.badRequest("The request body is empty; send a JSON object.");
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new AppError(
      "malformed-json",
      400,
      `The request body is not valid JSON: ${(err as Error).message}`,
    );
  }
}

export function requireObject(body: unknown): Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw errors.badRequest("The request body must be a JSON object.");
  }
  return body as Record<string, unknown>;
}
