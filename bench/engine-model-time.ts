// The agent loop of the example crew in process, without a database: for each task, the time
// inside the offline model (OFFLINE_MODEL_DELAY_MS=0) and the time of the whole loop (tool loop,
// model, tools). bench/engine.mjs subtracts these from task times in the event log. Prints JSON.
import path from "node:path";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { loadCrews } from "@/lib/crew/load-crews";
import { buildPrompt, contextFor } from "@/lib/engine/prompt";
import { runAgent } from "@/lib/engine/run-agent";
import { createOfflineModel } from "@/lib/llm/offline-model";
import { plainTools } from "@/lib/tools/builtin";

const REPS = Number(process.env.REPS ?? 200);
const WARMUP = 50;
const CREW = process.env.CREW ?? "research-brief";

async function main() {
  const crew = loadCrews(path.resolve("crews")).crews.get(CREW);
  if (!crew) throw new Error(`no crew ${CREW} in crews/`);
  const offline = createOfflineModel({ delayMs: 0 });
  let inModel = 0;
  const model: LanguageModelV3 = {
    ...offline,
    async doGenerate(options) {
      const t0 = performance.now();
      try {
        return await offline.doGenerate(options);
      } finally {
        inModel += performance.now() - t0;
      }
    },
  };
  const samples = new Map<string, { model: number[]; loop: number[] }>(
    crew.tasks.map((t) => [t.id, { model: [], loop: [] }]),
  );
  const inputs = { topic: "Heat pumps", audience: "home owners" };
  for (let rep = 0; rep < WARMUP + REPS; rep++) {
    const outputs = new Map<string, string>();
    for (const task of crew.tasks) {
      const agent = crew.agents.find((a) => a.id === task.agent);
      if (!agent) throw new Error(`unknown agent ${task.agent}`);
      const { system, prompt } = buildPrompt({
        agent,
        task,
        inputs,
        context: contextFor(task, crew.tasks, outputs),
      });
      inModel = 0;
      const t0 = performance.now();
      const result = await runAgent({
        model,
        system,
        prompt,
        tools: plainTools(agent.tools),
        maxSteps: 12,
        maxRetries: 0,
        signal: new AbortController().signal,
        onStep: async () => {},
      });
      const loop = performance.now() - t0;
      outputs.set(task.id, result.output);
      const s = samples.get(task.id);
      if (s && rep >= WARMUP) {
        s.model.push(inModel);
        s.loop.push(loop);
      }
    }
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const perTask = Object.fromEntries(
    [...samples].map(([id, s]) => [id, { model_ms: med(s.model), loop_ms: med(s.loop) }]),
  );
  console.log(JSON.stringify({ reps: REPS, perTask }));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
