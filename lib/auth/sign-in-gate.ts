import os from "node:os";

// At most `max` password hashes run at once and at most `maxQueue` wait; beyond that the caller is
// refused at once. Each scrypt hash is ~50 ms of CPU and 32 MiB: unbounded, a few dozen anonymous
// sign-ins would take every core and starve the API; bounded, a flood costs at most `max` cores
// and gets a quick "busy, retry" while everyone else is still served.

export class Busy extends Error {
  constructor(readonly retryAfterS: number) {
    super(`Too many sign-ins are being checked at once; retry after ${retryAfterS} s.`);
    this.name = "Busy";
  }
}

export class Semaphore {
  private running = 0;
  private waiting: (() => void)[] = [];

  constructor(
    readonly max: number,
    readonly maxQueue: number,
  ) {}

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.running >= this.max) {
      if (this.waiting.length >= this.maxQueue) throw new Busy(1);
      // Woken by release(), which hands its slot straight to us (running stays counted).
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }

  get stats() {
    return { running: this.running, waiting: this.waiting.length };
  }
}

declare global {
  var __crewdeckHashGate: Semaphore | undefined;
}
const slot = globalThis;
// Half the cores (at least one), so hashing never takes them all; a queue of 8 is ~0.4 s of waiting.
slot.__crewdeckHashGate ??= new Semaphore(
  Math.max(1, Math.floor(os.availableParallelism() / 2)),
  8,
);
export const hashGate = slot.__crewdeckHashGate;
