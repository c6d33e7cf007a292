import { publicUrl } from "@/lib/config/public-url";
import type { CrewDef } from "@/lib/crew/schema";
import { crewJson } from "@/lib/runs/create-execution";

// A2A 1.0 agent cards (ProtoJSON, as the specification's a2a.proto gives them): one per crew at
// /api/a2a/{crew}/.well-known/agent-card.json, and the host's at /.well-known/agent-card.json.

export const A2A_VERSION = "1.0";
const MODES = ["text/plain", "application/json"];

const security = {
  securitySchemes: {
    bearer: {
      httpAuthSecurityScheme: {
        scheme: "Bearer",
        description:
          "A Crewdeck API token: an organization token (cdo_…) or a person's (cdu_…), with that person's role.",
      },
    },
  },
  securityRequirements: [{ schemes: { bearer: { list: [] } } }],
};

const provider = () => ({ organization: "Crewdeck", url: publicUrl() });

const capabilities = { streaming: true, pushNotifications: true, extendedAgentCard: false };

/** The skills a crew offers: its tasks, or a flow's methods. */
function skillsOf(crew: CrewDef) {
  if (crew.flow)
    return crew.flow.methods.map((m) => ({
      id: m.name,
      name: m.name,
      description: `A step of the flow '${crew.name}'${m.feedback ? " that asks a person for feedback" : ""}.`,
      tags: ["flow", crew.slug],
    }));
  return crew.tasks.map((t) => ({
    id: t.id,
    name: t.name,
    description: t.description,
    tags: [crew.slug, ...(t.human_input ? ["human-review"] : [])],
  }));
}

export function crewCard(crew: CrewDef) {
  const reviewed =
    crew.tasks.some((t) => t.human_input) || crew.flow?.methods.some((m) => m.feedback);
  return {
    name: crew.name,
    description: `${crew.description ?? `The ${crew.flow ? "flow" : "crew"} '${crew.name}'.`} Send its inputs as a data part (or JSON text; plain text fills its one input).${reviewed ? " Outputs that need a person's review put the task in input-required: a reviewer replies on the task, or decides in Crewdeck's inbox." : ""}`,
    supportedInterfaces: [
      {
        url: `${publicUrl()}/api/a2a/${crew.slug}`,
        protocolBinding: "JSONRPC",
        protocolVersion: A2A_VERSION,
      },
    ],
    provider: provider(),
    version: crewJson(crew).key.slice(0, 12),
    capabilities: { ...capabilities },
    ...security,
    defaultInputModes: MODES,
    defaultOutputModes: MODES,
    skills: skillsOf(crew),
  };
}

/**
 * The host's card, public: it names no crew. Its endpoint runs the crew a message names in
 * `metadata.crew`; the extended card (GetExtendedAgentCard, with a token) lists them as skills.
 */
export function hostCard(crews?: CrewDef[]) {
  return {
    name: "Crewdeck",
    description:
      "Crews of LLM agents, with human review. Each crew is an agent with its own card at /api/a2a/{crew}/.well-known/agent-card.json; this endpoint runs the crew named in a message's metadata.crew.",
    supportedInterfaces: [
      { url: `${publicUrl()}/api/a2a`, protocolBinding: "JSONRPC", protocolVersion: A2A_VERSION },
    ],
    provider: provider(),
    version: "1.0.0",
    capabilities: { ...capabilities, extendedAgentCard: true },
    ...security,
    defaultInputModes: MODES,
    defaultOutputModes: MODES,
    skills: crews
      ? crews.map((c) => ({
          id: c.slug,
          name: c.name,
          description: c.description ?? `Runs '${c.name}' (metadata.crew: "${c.slug}").`,
          tags: [c.flow ? "flow" : "crew"],
        }))
      : [
          {
            id: "crews",
            name: "Run a crew",
            description:
              "Runs the crew named in the message's metadata.crew; GetExtendedAgentCard lists the crews your token may start.",
            tags: ["crews"],
          },
        ],
  };
}
