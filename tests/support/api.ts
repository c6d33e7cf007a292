import { expect } from "vitest";

// biome-ignore lint/suspicious/noExplicitAny: JSON from the server under test, asserted field by field
export type Json = any;
export type Reply = { status: number; headers: Headers; text: string; json: Json };

export async function call(
  baseUrl: string,
  method: string,
  path: string,
  {
    token,
    body,
    headers = {},
  }: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const h: Record<string, string> = { ...headers };
  if (token !== undefined) h.authorization = `Bearer ${token}`;
  let payload: string | undefined;
  if (body !== undefined) {
    payload = typeof body === "string" ? body : JSON.stringify(body);
    h["content-type"] ??= "application/json";
  }
  const res = await fetch(baseUrl + path, {
    method,
    headers: h,
    body: payload,
    redirect: "manual",
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** A client bound to one crew and token, as a program calling the API would hold it. */
export function crewClient(baseUrl: string, crew: string, token: string) {
  const base = `/api/crews/${crew}`;
  return {
    health: () => call(baseUrl, "GET", base, { token }),
    inputs: () => call(baseUrl, "GET", `${base}/inputs`, { token }),
    kickoff: (body: unknown) => call(baseUrl, "POST", `${base}/kickoff`, { token, body }),
    status: (id: string) => call(baseUrl, "GET", `${base}/status/${id}`, { token }),
    stop: (id: string) => call(baseUrl, "POST", `${base}/stop/${id}`, { token }),
    resume: (body: unknown) => call(baseUrl, "POST", `${base}/resume`, { token, body }),
    events: (id: string, after = 0) =>
      call(baseUrl, "GET", `${base}/executions/${id}/events?after=${after}`, { token }),
    async start(inputs: Record<string, unknown>) {
      const r = await call(baseUrl, "POST", `${base}/kickoff`, { token, body: { inputs } });
      expect(r.status, r.text).toBe(200);
      return r.json.kickoff_id as string;
    },
    /** Polls /status until `done` holds (or the time runs out). */
    async waitFor(id: string, done: (s: Json) => boolean, timeoutMs = 120_000) {
      const start = Date.now();
      let attempt = 0;
      for (;;) {
        const r = await call(baseUrl, "GET", `${base}/status/${id}`, { token });
        expect(r.status, r.text).toBe(200);
        if (done(r.json)) return r.json;
        if (Date.now() - start > timeoutMs) throw new Error(`timed out; last status: ${r.text}`);
        await pollNap(attempt++);
      }
    },
  };
}

export function expectProblem(r: Reply, status: number) {
  expect(r.status, r.text).toBe(status);
  expect(r.headers.get("content-type")).toContain("application/problem+json");
  expect(r.json).toMatchObject({
    status,
    type: expect.any(String),
    title: expect.any(String),
    detail: expect.any(String),
  });
  expect(r.text).not.toMatch(/\bat .+\.(js|ts):\d+/); // never a stack trace
}

/**
 * The pause before a poll's next try: 25 ms at first, doubling to 200 ms. A wait for a run of
 * several seconds asks a few dozen times instead of a few hundred, each ask costing the server and
 * this process CPU that the suites beside it are waiting for.
 */
function pollNap(attempt: number) {
  return new Promise((r) => setTimeout(r, Math.min(25 * 2 ** attempt, 200)));
}

/** Polls `get` until `ok` holds; fails with the last value after `timeoutMs`. */
export async function until<T>(
  what: string,
  get: () => Promise<T> | T,
  ok: (v: T) => boolean,
  timeoutMs = 120_000,
): Promise<T> {
  const start = Date.now();
  for (let attempt = 0; ; attempt++) {
    const v = await get();
    if (ok(v)) return v;
    if (Date.now() - start > timeoutMs)
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v).slice(0, 2000)}`);
    await pollNap(attempt);
  }
}
