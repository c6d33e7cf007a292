import path from "node:path";
import { chooseModel, type ModelSettings, missingSetup } from "@/lib/llm/choose-model";
import type { Vars } from "@/lib/llm/providers";
import type { CrewDef, CrewWarning } from "./schema";

/**
 * A model that cannot run for want of a key or base URL, said when the crews load rather than when
 * a run fails. Under LLM_OVERRIDE only the override model counts: the crews' own are not used.
 */
export function modelWarnings(
  crews: Iterable<CrewDef>,
  crewsDir: string,
  settings: ModelSettings,
  vars: Vars = process.env,
): CrewWarning[] {
  const warnings: CrewWarning[] = [];
  for (const crew of crews) {
    // Agents are read from the first file of a crew (crew.yaml, or config/agents.yaml).
    const file = path.relative(crewsDir, crew.source[0] ?? crewsDir) || ".";
    // A hierarchical crew's made-up manager calls a model too.
    const managed = crew.manager && !crew.agents.includes(crew.manager) ? [crew.manager] : [];
    // A flow's agents are those of the crews and agents its methods call.
    const nested = Object.values(crew.flow?.crews ?? {}).flatMap((c) => c.agents);
    for (const agent of [...crew.agents, ...managed, ...nested]) {
      const choice = chooseModel(agent, settings, vars);
      const missing = missingSetup(choice, vars);
      if (!missing) continue;
      const via = choice.source === "agent" ? "" : ` (${choice.source})`;
      warnings.push({
        slug: crew.slug,
        file,
        key: managed.includes(agent) ? "manager_llm" : `${agent.id}.llm`,
        message: `${missing}${via}: runs fail until it is set (LLM_OVERRIDE=offline runs every crew without a key)`,
      });
    }
  }
  return warnings;
}
