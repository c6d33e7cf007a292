import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { call, crewClient, expectProblem, type Reply } from "../support/api";
import {
  FIXTURE_CREWS,
  freePort,
  freshPostgresDatabase,
  type Proc,
  startServer,
  TEST_CREW_TOKEN,
  tempDir,
  tokenCli,
} from "../support/harness";

// Open event streams are capped per caller (429) and in all (503), and a slot comes back when
// the client goes away or the run ends. A server of its own with caps of 2 and 3.
const mode = inject("db");
let web: Proc & { url: string };
let env: Record<string, string>;
const open: AbortController[] = [];

beforeAll(async () => {
  env = {
    PORT: String(await freePort()),
    DATA_DIR: tempDir("streams"),
    CREWS_DIR: FIXTURE_CREWS,
    CREW_TOKEN: TEST_CREW_TOKEN,
    OFFLINE_MODEL_DELAY_MS: "0",
    WORKER_POLL_MS: "100",
    STREAM_LIMIT_PER_CALLER: "2",
    STREAM_LIMIT_TOTAL: "3",
  };
  if (mode === "postgres") env.DATABASE_URL = (await freshPostgresDatabase()) as string;
  web = await startServer(env);
});
afterAll(async () => {
  for (const c of open) c.abort();
  await web?.kill();
});

type Stream = { status: number; controller: AbortController; refused?: Reply };

/** Opens a stream and, when it is accepted, reads its first bytes so it is surely open. */
async function openStream(id: string, token: string): Promise<Stream> {
  const controller = new AbortController();
  const res = await fetch(`${web.url}/api/crews/review/executions/${id}/stream`, {
    headers: { authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  if (res.status !== 200) {
    const text = await res.text();
    return {
      status: res.status,
      controller,
      refused: { status: res.status, headers: res.headers, text, json: JSON.parse(text) },
    };
  }
  open.push(controller);
  const reader = res.body?.getReader();
  const first = await reader?.read();
  expect(new TextDecoder().decode(first?.value)).toMatch(/retry: 1000|event: execution/);
  return { status: 200, controller };
}

/** Slots are freed when the server notices: try until one is granted (bounded). */
async function eventuallyOpens(id: string, token: string) {
  for (let i = 0; i < 100; i++) {
    const s = await openStream(id, token);
    if (s.status === 200) return s;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("no stream slot came back");
}

describe("event stream limits", () => {
  it("429 past the per-caller cap, 503 past the total; slots come back", async () => {
    const org = crewClient(web.url, "review", TEST_CREW_TOKEN);
    const paused = await org.start({ subject: "streams" });
    await org.waitFor(paused, (s) => s.status === "pending_human_input");

    const a = await openStream(paused, TEST_CREW_TOKEN);
    const b = await openStream(paused, TEST_CREW_TOKEN);
    expect([a.status, b.status]).toEqual([200, 200]);
    const third = await openStream(paused, TEST_CREW_TOKEN);
    expectProblem(third.refused as Reply, 429);
    expect(third.refused?.json.detail).toMatch(/at most 2 per caller/);
    expect(Number(third.refused?.headers.get("retry-after"))).toBeGreaterThan(0);

    // Another caller is not held back by the first one's cap, only by the total.
    const other = (await tokenCli(["create", "--org"], env)).token as string;
    expect((await openStream(paused, other)).status).toBe(200);
    const full = await openStream(paused, other);
    expectProblem(full.refused as Reply, 503);
    expect(Number(full.refused?.headers.get("retry-after"))).toBeGreaterThan(0);
    // Health checks and ordinary requests still get through.
    expect((await call(web.url, "GET", "/api/crews/review", { token: other })).status).toBe(200);

    // The client going away frees its slot.
    a.controller.abort();
    await eventuallyOpens(paused, TEST_CREW_TOKEN);

    // The run ending closes every stream on it and frees all their slots.
    expect((await org.stop(paused)).status).toBe(200);
    const second = await org.start({ subject: "streams again" });
    await org.waitFor(second, (s) => s.status === "pending_human_input");
    await eventuallyOpens(second, TEST_CREW_TOKEN);
    await eventuallyOpens(second, TEST_CREW_TOKEN);
    await eventuallyOpens(second, other);
  });
});
