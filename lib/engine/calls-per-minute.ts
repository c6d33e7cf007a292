import type { LanguageModelV3 } from "@ai-sdk/provider";
import { wrapLanguageModel } from "ai";
import { sleep } from "@/lib/util/sleep";

const MINUTE_MS = 60_000;

type Clock = { now: () => number; sleep: (ms: number, signal?: AbortSignal) => Promise<void> };

const realClock: Clock = { now: () => Date.now(), sleep };

/**
 * CrewAI's `max_rpm`: at most `limit` model calls in any minute. A call over the limit waits
 * until the oldest call of the last minute is a minute old.
 */
export class CallsPerMinute {
  private calls: number[] = [];

  constructor(
    readonly limit: number,
    private readonly clock: Clock = realClock,
  ) {}

  /** Waits for a free slot and takes it; returns how long it waited (ms). */
  async take(signal?: AbortSignal): Promise<number> {
    let waited = 0;
    for (;;) {
      const now = this.clock.now();
      this.calls = this.calls.filter((t) => now - t < MINUTE_MS);
      if (this.calls.length < this.limit) {
        this.calls.push(now);
        return waited;
      }
      const wait = (this.calls[0] ?? now) + MINUTE_MS - now;
      await this.clock.sleep(wait, signal);
      waited += wait;
    }
  }
}

/** The model, with every call first taking a slot from each limiter (the agent's, the crew's). */
export function limitedModel(model: LanguageModelV3, limiters: CallsPerMinute[]): LanguageModelV3 {
  if (!limiters.length) return model;
  const takeAll = async (signal?: AbortSignal) => {
    for (const l of limiters) await l.take(signal);
  };
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: "v3",
      wrapGenerate: async ({ doGenerate, params }) => {
        await takeAll(params.abortSignal);
        return doGenerate();
      },
      wrapStream: async ({ doStream, params }) => {
        await takeAll(params.abortSignal);
        return doStream();
      },
    },
  });
}

// One set of limiters per execution this process is running, so the count spans its tasks.
const running = new Map<string, Map<string, CallsPerMinute>>();

/** The limiters for one agent's calls in one execution: its own `max_rpm`, then the crew's. */
export function limitersFor(
  executionId: string,
  crewRpm: number | undefined,
  agent: { id: string; max_rpm?: number },
): CallsPerMinute[] {
  let byKey = running.get(executionId);
  if (!byKey) {
    byKey = new Map();
    running.set(executionId, byKey);
  }
  const get = (key: string, limit: number | undefined) => {
    if (!limit) return [];
    let l = byKey.get(key);
    if (!l || l.limit !== limit) {
      l = new CallsPerMinute(limit);
      byKey.set(key, l);
    }
    return [l];
  };
  return [...get(`agent:${agent.id}`, agent.max_rpm), ...get("crew", crewRpm)];
}

/** The execution left this process (finished, paused, stopped): forget its counts. */
export function forgetLimiters(executionId: string) {
  running.delete(executionId);
}
