import type { CrewDescription } from "@/lib/contract/crew-catalog";
import { toInputSchema } from "./input-schema";
import type { CrewDef, CrewWarning, FlowPlan } from "./schema";
import { inputSpecsOf } from "./validate-inputs";

/** A crew as GET /api/crews describes it, with its warnings. */
export function describeCrew(
  crew: CrewDef,
  warnings: CrewWarning[],
  models: { LLM_OVERRIDE?: string; DEFAULT_LLM: string },
): CrewDescription {
  const flow = crew.flow;
  return {
    slug: crew.slug,
    name: crew.name,
    description: crew.description,
    kind: flow ? "flow" : "crew",
    url: `/api/crews/${crew.slug}`,
    inputs: crew.inputs,
    input_schema: toInputSchema(inputSpecsOf(crew)),
    process: flow ? null : (crew.process ?? "sequential"),
    agents: crew.agents.map((a) => ({
      id: a.id,
      role: a.role,
      model: models.LLM_OVERRIDE || a.llm || models.DEFAULT_LLM,
      tools: a.tools,
      mcps: a.mcps ?? [],
    })),
    tasks: crew.tasks.map((t) => ({
      id: t.id,
      name: t.name,
      agent: t.agent,
      human_input: t.human_input,
    })),
    flow: flow ? { methods: flowShape(flow) } : null,
    warnings: warnings
      .filter((w) => w.slug === crew.slug)
      .map((w) => ({ file: w.file, key: w.key, line: w.line ?? null, message: w.message })),
  };
}

/** A flow's methods as its graph needs them (and GET /api/crews gives them). */
export function flowShape(flow: FlowPlan) {
  return flow.methods.map((m) => ({
    name: m.name,
    call: m.do.call,
    start: m.start,
    listen: m.listen,
    router: m.router,
    emit: m.emit,
    human_feedback: m.feedback !== null,
  }));
}
