// The document's tags, in its order: every endpoint names one of these (endpoint.ts).
export const TAGS = [
  { name: "Crew API", description: "CrewAI's deployed-crew API, served per crew." },
  { name: "Runs", description: "Executions across crews, and saved views of them." },
  {
    name: "Schedules and triggers",
    description: "Runs that start themselves: on a cron in a time zone, or from a signed webhook.",
  },
  {
    name: "Experiments",
    description:
      "Datasets, variants of a crew, scored runs of both, and judges calibrated against reviewers.",
  },
  {
    name: "Agent protocols",
    description:
      "Every crew as an MCP tool, an A2A 1.0 agent and an AG-UI agent, with the same tokens, roles and reviews.",
  },
  { name: "Webhooks", description: "The delivery log, the signing secret and receivers." },
  {
    name: "Integrations",
    description: "Issue-tracker actions for agent runtimes, and their settings.",
  },
  {
    name: "Notifications",
    description: "E-mail (SMTP) and Slack notifications, and each person's preferences.",
  },
  {
    name: "Administration",
    description: "Deployments, tokens, people, prices, and agents' MCP servers.",
  },
  { name: "Service", description: "Liveness and this document." },
] as const;

export type Tag = (typeof TAGS)[number]["name"];
