import { CopyButton } from "@/components/ui/copy-button";
import { env } from "@/lib/config/env";
import { publicUrl } from "@/lib/config/public-url";

type AgentEndpoint = { name: string; url: string; hint: string };

/** Where programs reach the crew over the agent protocols, each address ready to copy. */
export function AgentEndpoints({ slug }: { slug: string }) {
  const endpoints = agentEndpoints(slug);
  if (!endpoints.length) return null;
  return (
    <section aria-labelledby="agent-endpoints" className="grid gap-2 border-t pt-3">
      <h3 id="agent-endpoints" className="m-0 font-medium text-sm">
        As an agent, with the same token
      </h3>
      <ul className="m-0 grid list-none gap-3 p-0">
        {endpoints.map((e) => (
          <li key={e.name} className="grid gap-0.5">
            <div className="flex items-center justify-between gap-2">
              <span className="text-sm">{e.name}</span>
              <CopyButton text={e.url} what={`${e.name} address`} />
            </div>
            <code className="break-all font-mono text-muted-foreground text-xs">{e.url}</code>
            <span className="text-muted-foreground text-xs">{e.hint}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The agent protocols switched on here (AGENT_PROTOCOLS), as addresses for this crew. */
function agentEndpoints(slug: string): AgentEndpoint[] {
  const on = env().AGENT_PROTOCOLS;
  const base = publicUrl();
  const crew = encodeURIComponent(slug);
  const all: (AgentEndpoint & { protocol: string })[] = [
    {
      protocol: "mcp",
      name: "MCP server",
      url: `${base}/api/mcp`,
      hint: `The tool "${slug}", among the crews your token may start.`,
    },
    {
      protocol: "a2a",
      name: "A2A agent card",
      url: `${base}/api/a2a/${crew}/.well-known/agent-card.json`,
      hint: "A2A 1.0: reviews wait as input-required.",
    },
    {
      protocol: "ag-ui",
      name: "AG-UI endpoint",
      url: `${base}/api/ag-ui/${crew}`,
      hint: "Reviews end a run with an interrupt.",
    },
  ];
  return all.filter((e) => (on as string[]).includes(e.protocol));
}
