import { FlaskConical, Globe } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { RecentRuns } from "@/components/crews/recent-runs";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import type { McpServerDef } from "@/lib/crew/mcp-config";
import type { AgentDef, CrewDef, CrewWarning } from "@/lib/crew/schema";
import { agentAsks, agentToolNames, modelText, plural } from "./crew-page-facts";

// The sections of a crew's page (app/(dashboard)/crews/[crew]/page.tsx).

/** Under the title: what kind of crew it is, its size and its models. */
export function CrewBadges({
  crew,
  remote,
  models,
}: {
  crew: CrewDef;
  remote: boolean;
  models: string[];
}) {
  return (
    <div className="flex flex-wrap items-center gap-1.5 pt-1">
      {remote ? (
        <Badge tone="info">
          <Globe aria-hidden />
          Remote deployment
        </Badge>
      ) : crew.flow ? (
        <>
          <Badge tone="info">CrewAI Flow</Badge>
          <Badge>{plural(crew.tasks.length, "method")}</Badge>
          <Badge>{plural(Object.keys(crew.flow.crews).length, "crew and agent")}</Badge>
        </>
      ) : (
        <>
          <Badge>{plural(crew.agents.length, "agent")}</Badge>
          <Badge>{plural(crew.tasks.length, "task")}</Badge>
          {models.map((m) => (
            <Badge key={m}>
              <span className="font-mono">{m}</span>
            </Badge>
          ))}
        </>
      )}
    </div>
  );
}

export function CrewWarnings({ warnings }: { warnings: CrewWarning[] }) {
  if (!warnings.length) return null;
  return (
    <Alert
      tone="warning"
      title={`${warnings.length} ${warnings.length === 1 ? "thing" : "things"} in this crew's files Crewdeck does not do as written`}
      className="mb-6"
    >
      <ul className="m-0 grid list-none gap-1.5 p-0">
        {warnings.map((w) => (
          <li key={`${w.file}:${w.key}:${w.message}`} className="break-words">
            <code className="font-mono text-xs">
              {w.file}
              {w.line ? `:${w.line}` : ""}
              {w.key ? ` ${w.key}` : ""}
            </code>{" "}
            — {w.message}
          </li>
        ))}
      </ul>
    </Alert>
  );
}

export function RecentRunsSection({
  slug,
  remote,
  blocked,
}: {
  slug: string;
  remote: boolean;
  blocked: boolean;
}) {
  return (
    <section aria-labelledby="recent-runs" className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="recent-runs" className="m-0 font-semibold text-base">
          Recent runs
        </h2>
        {!remote && (
          <Button asChild size="sm" variant="ghost">
            <Link href={`/crews/${encodeURIComponent(slug)}/experiments`}>
              <FlaskConical aria-hidden />
              Experiments
            </Link>
          </Button>
        )}
      </div>
      <RecentRuns crew={slug} blocked={blocked} />
    </section>
  );
}

export function RemoteCard({ source }: { source: string | undefined }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="m-0">Remote deployment</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-2 text-sm">
        <p className="break-words">
          Runs on <code className="font-mono text-xs">{source}</code>. Its form comes from the
          deployment's inputs; its runs report back by webhook and polling and are reviewed here
          like local ones.
        </p>
      </CardContent>
    </Card>
  );
}

/** The crew's tasks (a flow's methods) in order, each with its agent and whether it is reviewed. */
export function TasksCard({ crew }: { crew: CrewDef }) {
  const agentRole = new Map(crew.agents.map((a) => [a.id, a.role]));
  return (
    <Card>
      <CardHeader>
        <CardTitle className="m-0">{crew.flow ? "Methods" : "Tasks, in order"}</CardTitle>
      </CardHeader>
      <CardContent>
        <ol className="grid gap-3">
          {crew.tasks.map((t, i) => (
            <li key={t.id} className="flex gap-3 text-sm">
              <span
                aria-hidden
                className="flex size-6 shrink-0 items-center justify-center rounded-full bg-muted font-medium text-xs tabular-nums"
              >
                {i + 1}
              </span>
              <div className="grid min-w-0 gap-0.5">
                <span className="flex flex-wrap items-center gap-1.5 font-medium">
                  {t.name}
                  {t.human_input && <Badge tone="warning">Review</Badge>}
                </span>
                <span className="text-muted-foreground text-xs">
                  by {agentRole.get(t.agent) ?? t.agent}
                </span>
              </div>
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}

export function AgentsCard({
  agents,
  servers,
  modelOf,
  override,
}: {
  agents: AgentDef[];
  servers: McpServerDef[];
  modelOf: (a: AgentDef) => string;
  override: string | undefined;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="m-0">Agents</CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-2 text-sm">
          {agents.map((a) => (
            <li key={a.id} className="flex flex-wrap items-baseline justify-between gap-x-3">
              <span className="min-w-0 font-medium">{a.role}</span>
              <code className="font-mono text-muted-foreground text-xs">
                {modelText(modelOf(a), a.llm, override)}
              </code>
              <AgentTools agent={a} servers={servers} />
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

/** What an agent may call, and which calls wait for a person first (its rule, its servers'). */
function AgentTools({ agent, servers }: { agent: AgentDef; servers: McpServerDef[] }) {
  const tools = agentToolNames(agent);
  if (!tools.length) return null;
  const asks = agentAsks(agent, servers);
  return (
    <span className="grid w-full gap-0.5 text-muted-foreground text-xs">
      <span className="break-words">
        Tools: <span className="font-mono">{tools.join(", ")}</span>
      </span>
      {asks.length > 0 && <span>Asks a person before {asks.join("; ")}</span>}
    </span>
  );
}

export function StartCard({ children }: { children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="m-0">Start a run</CardTitle>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}
