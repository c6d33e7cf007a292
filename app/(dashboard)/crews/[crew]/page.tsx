import { FlaskConical, Globe } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { SchedulesList } from "@/components/automation/schedules-list";
import { TriggersList } from "@/components/automation/triggers-list";
import { AgentEndpoints } from "@/components/crews/agent-endpoints";
import { KickoffForm } from "@/components/crews/kickoff-form";
import { RecentRuns } from "@/components/crews/recent-runs";
import { FlowGraph } from "@/components/run/flow-graph";
import { PageHeader } from "@/components/shell/page-header";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { CopyButton } from "@/components/ui/copy-button";
import { requireUser } from "@/lib/auth/require-user";
import { roleAllows } from "@/lib/auth/roles";
import { env } from "@/lib/config/env";
import { flowShape } from "@/lib/crew/describe-crew";
import type { McpServerDef } from "@/lib/crew/mcp-config";
import { crewsFor } from "@/lib/crew/registry";
import type { RequiresApproval } from "@/lib/crew/requires-approval";
import type { AgentDef } from "@/lib/crew/schema";
import { crewForPage } from "@/lib/deployments/crew-for-page";
import { chooseModel, missingSetup } from "@/lib/llm/choose-model";

export const dynamic = "force-dynamic";

export async function generateMetadata({
  params,
}: {
  params: Promise<{ crew: string }>;
}): Promise<Metadata> {
  const { principal } = await requireUser();
  const crew = await crewForPage(principal, (await params).crew);
  return { title: crew?.name ?? "Crew" };
}

const CODE = "overflow-x-auto whitespace-pre rounded-lg bg-muted p-3 font-mono text-xs leading-5";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export default async function CrewPage({ params }: { params: Promise<{ crew: string }> }) {
  const { crew: slug } = await params;
  const { user, principal } = await requireUser();
  const crew = await crewForPage(principal, slug);
  if (!crew) notFound();
  const remote = crew.slug.startsWith("@");
  // A model's missing key is said beside the form (blocked, below): not twice.
  const warnings = crewsFor(principal).warnings.filter(
    (w) => w.slug === crew.slug && !/runs fail until it is set/.test(w.message),
  );
  const canStart = roleAllows(user.role, "start");
  // The models runs use: LLM_OVERRIDE's when set, not the crew file's.
  const override = env().LLM_OVERRIDE;
  const modelOf = (a: (typeof crew.agents)[number]) => chooseModel(a, env()).ref.id;
  const models = [...new Set(crew.agents.map(modelOf))];
  // A run that cannot succeed (a model's key missing) is said beside the form, with the fix.
  const every = [...crew.agents, ...Object.values(crew.flow?.crews ?? {}).flatMap((c) => c.agents)];
  const blocked = remote
    ? []
    : [
        ...new Set(
          every.flatMap((a) => {
            const missing = missingSetup(chooseModel(a, env()));
            return missing
              ? [
                  `${missing}: set it in Crewdeck's environment and restart (or LLM_OVERRIDE=offline to try it without a key).`,
                ]
              : [];
          }),
        ),
      ];
  const body = JSON.stringify({ inputs: Object.fromEntries(crew.inputs.map((i) => [i, "…"])) });
  const curl = [
    `curl -X POST "$CREWDECK_URL/api/crews/${crew.slug}/kickoff"`,
    `  -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json"`,
    `  -d '${body}'`,
  ].join(" \\\n");
  const agentRole = new Map(crew.agents.map((a) => [a.id, a.role]));
  return (
    <>
      <PageHeader title={crew.name} description={crew.description ?? undefined}>
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
      </PageHeader>
      {warnings.length > 0 && (
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
      )}
      {crew.flow && (
        <div className="mb-6">
          <FlowGraph crew={crew.slug} methods={flowShape(crew.flow)} />
        </div>
      )}
      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="grid min-w-0 grid-cols-[minmax(0,1fr)] content-start gap-6">
          <Card>
            <CardHeader>
              <CardTitle className="m-0">Start a run</CardTitle>
            </CardHeader>
            <CardContent>
              {canStart ? (
                <KickoffForm crew={crew.slug} blocked={blocked} />
              ) : (
                <Alert tone="info">
                  Your role ({user.role}) can watch runs but not start them.
                </Alert>
              )}
            </CardContent>
          </Card>
          <section aria-labelledby="recent-runs" className="grid gap-3">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h2 id="recent-runs" className="m-0 font-semibold text-base">
                Recent runs
              </h2>
              {!remote && (
                <Button asChild size="sm" variant="ghost">
                  <Link href={`/crews/${encodeURIComponent(crew.slug)}/experiments`}>
                    <FlaskConical aria-hidden />
                    Experiments
                  </Link>
                </Button>
              )}
            </div>
            <RecentRuns crew={crew.slug} blocked={blocked.length > 0} />
          </section>
          {!remote && (
            <>
              <SchedulesList crew={crew.slug} canEdit={canStart} />
              <TriggersList crew={crew.slug} canEdit={canStart} />
            </>
          )}
        </div>
        <div className="grid min-w-0 grid-cols-[minmax(0,1fr)] content-start gap-6">
          {remote ? (
            <Card>
              <CardHeader>
                <CardTitle className="m-0">Remote deployment</CardTitle>
              </CardHeader>
              <CardContent className="grid gap-2 text-sm">
                <p className="break-words">
                  Runs on <code className="font-mono text-xs">{crew.source[0]}</code>. Its form
                  comes from the deployment's inputs; its runs report back by webhook and polling
                  and are reviewed here like local ones.
                </p>
              </CardContent>
            </Card>
          ) : (
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
          )}
          {!remote && crew.agents.length > 0 && (
            <Card>
              <CardHeader>
                <CardTitle className="m-0">Agents</CardTitle>
              </CardHeader>
              <CardContent>
                <ul className="grid gap-2 text-sm">
                  {crew.agents.map((a) => (
                    <li
                      key={a.id}
                      className="flex flex-wrap items-baseline justify-between gap-x-3"
                    >
                      <span className="min-w-0 font-medium">{a.role}</span>
                      <code className="font-mono text-muted-foreground text-xs">
                        {override
                          ? `${modelOf(a)} (LLM_OVERRIDE; crew file: ${a.llm ?? "default"})`
                          : a.llm
                            ? modelOf(a)
                            : `${modelOf(a)} (default)`}
                      </code>
                      <AgentTools agent={a} servers={crew.mcp_servers ?? []} />
                    </li>
                  ))}
                </ul>
              </CardContent>
            </Card>
          )}
          <Card>
            <CardHeader>
              <CardTitle className="m-0">Start from the API</CardTitle>
              <CopyButton text={curl} label="Copy curl" />
            </CardHeader>
            <CardContent className="grid gap-2">
              {blocked.length > 0 && (
                <p className="m-0 text-muted-foreground text-sm">
                  A run started this way fails too until the crew has what it needs (above).
                </p>
              )}
              {/* The command wraps rather than hiding its end past the card's edge. */}
              <pre className={cn(CODE, "whitespace-pre-wrap break-all")}>{curl}</pre>
              {!remote && <AgentEndpoints slug={crew.slug} />}
            </CardContent>
          </Card>
        </div>
      </div>
    </>
  );
}

/** What an agent may call, and which calls wait for a person first (its rule, its servers'). */
function AgentTools({ agent, servers }: { agent: AgentDef; servers: McpServerDef[] }) {
  const mcps = agent.mcps ?? [];
  const tools = [...agent.tools, ...agent.apps.map((app) => `${app} actions`), ...mcps];
  if (!tools.length) return null;
  const ruleText = (rule: RequiresApproval | undefined, server?: string): string | null => {
    if (!rule) return null;
    if (rule === true) return server ? `every ${server} tool` : "every tool call";
    if (rule === "writes")
      return server ? `${server}'s tools that change something` : "calls that change something";
    return rule.map((t) => (server ? `${server}/${t}` : t)).join(", ");
  };
  const used = new Set(mcps.map((m) => m.split("/")[0]));
  const asks = [
    ruleText(agent.requires_approval),
    ...servers.filter((s) => used.has(s.name)).map((s) => ruleText(s.requires_approval, s.name)),
  ].filter(Boolean);
  return (
    <span className="grid w-full gap-0.5 text-muted-foreground text-xs">
      <span className="break-words">
        Tools: <span className="font-mono">{tools.join(", ")}</span>
      </span>
      {asks.length > 0 && <span>Asks a person before {asks.join("; ")}</span>}
    </span>
  );
}
