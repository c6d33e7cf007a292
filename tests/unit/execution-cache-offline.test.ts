import { describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/types";

// While the cache's LISTEN connection is down it could miss a change, so nothing is cached: every
// /status read goes to the database. The database here is only its LISTEN side, which the test
// takes down and brings back.
describe("execution cache without its notifications", () => {
  it("reads the database every time while not listening, and drops what it held when they stop", async () => {
    let report: (listening: boolean) => void = () => {};
    const listenOnly = {
      listen: async (_channel: string, _onMessage: unknown, onState?: (up: boolean) => void) => {
        report = onState ?? report; // connecting, not yet listening
      },
    } as unknown as Db;
    const cache = await import("@/lib/runs/execution-cache");
    const id = "22222222-2222-4222-8222-222222222222";
    let loads = 0;
    const read = () => cache.cachedExecution(listenOnly, id, async () => ({ n: ++loads }));

    expect(await read()).toEqual({ n: 1 });
    expect(await read()).toEqual({ n: 2 });
    report(true);
    expect(await read()).toEqual({ n: 3 });
    expect(await read()).toEqual({ n: 3 }); // held while notifications arrive
    report(false);
    expect(await read()).toEqual({ n: 4 });
    report(true); // back, with nothing held from before
    expect(await read()).toEqual({ n: 5 });
  });
});
