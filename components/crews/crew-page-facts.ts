import type { RequiresApproval } from "@/lib/crew/requires-approval";
import type { CrewWarning } from "@/lib/crew/schema";
import { chooseModel, type ModelSettings, missingSetup } from "@/lib/llm/choose-model";
import type { Vars } from "@/lib/llm/providers";

// What a crew's page says about it, worked out before it is drawn (app/(dashboard)/crews/[crew]).

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The crew's file warnings; a model's missing key is said beside the form instead: not twice. */
export function fileWarnings(warnings: CrewWarning[], slug: string): CrewWarning[] {
  return warnings.filter((w) => w.slug === slug && !/runs fail until it is set/.test(w.message));
}

/** Why a run cannot succeed (a model's key missing), with the fix: each once, for every agent. */
type ModelAgent = Parameters<typeof chooseModel>[0];

export function setupProblems(
  crew: { agents: ModelAgent[]; flow?: { crews: Record<string, { agents: ModelAgent[] }> } },
  settings: ModelSettings,
  vars?: Vars,
): string[] {
  const every = [...crew.agents, ...Object.values(crew.flow?.crews ?? {}).flatMap((c) => c.agents)];
  return [
    ...new Set(
      every.flatMap((a) => {
        const missing = missingSetup(chooseModel(a, settings, vars), vars);
        return missing
          ? [
              `${missing}: set it in Crewdeck's environment and restart (or LLM_OVERRIDE=offline to try it without a key).`,
            ]
          : [];
      }),
    ),
  ];
}

/** The curl that starts the crew, each input a placeholder. */
export function kickoffCurl(slug: string, inputs: string[]): string {
  const body = JSON.stringify({ inputs: Object.fromEntries(inputs.map((i) => [i, "…"])) });
  return [
    `curl -X POST "$CREWDECK_URL/api/crews/${slug}/kickoff"`,
    `  -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json"`,
    `  -d '${body}'`,
  ].join(" \\\n");
}

/** The model an agent's runs use, and where it comes from when not its crew file. */
export function modelText(model: string, crewFileLlm: string | undefined, override: unknown) {
  if (override) return `${model} (LLM_OVERRIDE; crew file: ${crewFileLlm ?? "default"})`;
  return crewFileLlm ? model : `${model} (default)`;
}

/** Which calls a rule (an agent's, or one MCP server's) has wait for a person. */
export function approvalRuleText(rule: RequiresApproval | undefined, server?: string) {
  if (!rule) return null;
  if (rule === true) return server ? `every ${server} tool` : "every tool call";
  if (rule === "writes")
    return server ? `${server}'s tools that change something` : "calls that change something";
  return rule.map((t) => (server ? `${server}/${t}` : t)).join(", ");
}

type AgentTooling = {
  tools: string[];
  apps: string[];
  mcps?: string[];
  requires_approval?: RequiresApproval;
};

/** What an agent may call: its tools, its apps' actions, its MCP servers' tools. */
export const agentToolNames = (agent: AgentTooling) => [
  ...agent.tools,
  ...agent.apps.map((app) => `${app} actions`),
  ...(agent.mcps ?? []),
];

/** Which of an agent's calls wait for a person first: its own rule, then its servers'. */
export function agentAsks(
  agent: AgentTooling,
  servers: { name: string; requires_approval?: RequiresApproval }[],
): string[] {
  const used = new Set((agent.mcps ?? []).map((m) => m.split("/")[0]));
  return [
    approvalRuleText(agent.requires_approval),
    ...servers
      .filter((s) => used.has(s.name))
      .map((s) => approvalRuleText(s.requires_approval, s.name)),
  ].filter((t): t is string => Boolean(t));
}
