// Preloaded into a process under test (node --expose-gc --import ./bench/gc-on-signal.mjs …) by
// bench/memory.mjs: on SIGUSR2 it collects garbage and prints its memory use as one line.
process.on("SIGUSR2", () => {
  globalThis.gc?.();
  process.stdout.write(`bench-memory ${JSON.stringify(process.memoryUsage())}\n`);
});
