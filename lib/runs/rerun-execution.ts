import type { Principal } from "@/lib/auth/principal";
import { env } from "@/lib/config/env";
import type { KickoffRequest } from "@/lib/contract/crew";
import type { CrewDef } from "@/lib/crew/schema";
import type { Db } from "@/lib/db/types";
import { errors } from "@/lib/errors";
import { chooseModel, missingSetup } from "@/lib/llm/choose-model";
import { parseModelRef } from "@/lib/llm/model-ref";
import { createExecution } from "./create-execution";
import { getExecutionOrThrow } from "./get-execution";

/** Agent id → model to run it on (`provider/model`, or `offline`); `*` for every agent. */
export type ModelChoices = Record<string, string>;

const agentsOf = (crew: CrewDef) => [
  ...crew.agents,
  ...Object.values(crew.flow?.crews ?? {}).flatMap((c) => c.agents),
];

/**
 * The crew with some agents on other models: the model replaces the agent's `llm` and its
 * provider settings (a base URL or temperature meant for the old model may not suit the new one).
 * Refused, field by field, when a model is not one Crewdeck can call or lacks its key here — a
 * re-run that would fail in its first second is not started.
 */
function withModels(crew: CrewDef, models: ModelChoices): CrewDef {
  const entries = Object.entries(models);
  if (!entries.length) return crew;
  const settings = env();
  if (settings.LLM_OVERRIDE)
    throw errors.unprocessable(
      `LLM_OVERRIDE is set: every agent runs on ${settings.LLM_OVERRIDE}, so a run cannot choose its models. Leave out \`models\`.`,
      { errors: [{ path: "models", message: "LLM_OVERRIDE decides every agent's model" }] },
    );
  const ids = new Set(agentsOf(crew).map((a) => a.id));
  const problems: { path: string; message: string }[] = [];
  for (const [agent, model] of entries) {
    const path = `models.${agent}`;
    if (agent !== "*" && !ids.has(agent)) {
      problems.push({ path, message: `no agent '${agent}' in this crew (${[...ids].join(", ")})` });
      continue;
    }
    const { error } = parseModelRef(model);
    const missing = error ? undefined : missingSetup(chooseModel({ llm: model }, settings));
    const problem = error ?? missing;
    if (problem) problems.push({ path, message: problem });
  }
  if (problems.length)
    throw errors.unprocessable(
      `Some models cannot be used: ${problems.map((p) => `${p.path}: ${p.message}`).join("; ")}.`,
      { errors: problems },
    );
  const every = models["*"];
  const swap = <T extends CrewDef>(c: T): T => ({
    ...c,
    agents: c.agents.map((a) => {
      const model = models[a.id] ?? every;
      if (!model) return a;
      const { llm_params: _, ...rest } = a;
      return { ...rest, llm: model };
    }),
  });
  const swapped = swap(crew);
  if (!crew.flow) return swapped;
  return {
    ...swapped,
    flow: {
      ...crew.flow,
      crews: Object.fromEntries(Object.entries(crew.flow.crews).map(([k, c]) => [k, swap(c)])),
    },
  };
}

/**
 * Starts `originId` again as a new run of the crew: its inputs with `request.inputs` changed
 * (checked as a kickoff's are), its meta unless given, optionally other models; the new run names
 * its origin. Anyone who may see the origin and start runs may re-run it.
 */
export async function rerunExecution({
  db,
  crew,
  principal,
  originId,
  request,
  models = {},
}: {
  db: Db;
  crew: CrewDef;
  principal: Principal;
  originId: string;
  request: KickoffRequest;
  models?: ModelChoices;
}): Promise<string> {
  const origin = await getExecutionOrThrow({ db, crew: crew.slug, id: originId, principal });
  const rerunCrew = withModels(crew, models);
  return createExecution({
    db,
    crew: rerunCrew,
    principal,
    request: {
      ...request,
      inputs: { ...origin.inputs, ...request.inputs },
      meta: request.meta ?? origin.meta ?? undefined,
    },
    origin: { id: origin.id, kind: "rerun" },
  });
}
