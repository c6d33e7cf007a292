import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { SchedulesList } from "@/components/automation/schedules-list";
import { TriggersList } from "@/components/automation/triggers-list";
import { AgentEndpoints } from "@/components/crews/agent-endpoints";
import { fileWarnings, kickoffCurl, setupProblems } from "@/components/crews/crew-page-facts";
import {
  AgentsCard,
  CrewBadges,
  CrewWarnings,
  RecentRunsSection,
  RemoteCard,
  StartCard,
  TasksCard,
} from "@/components/crews/crew-page-sections";
import { KickoffForm } from "@/components/crews/kickoff-form";
import { FlowGraph } from "@/components/run/flow-graph";
import { PageHeader } from "@/components/shell/page-header";
import { Alert } from "@/components/ui/alert";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { CopyButton } from "@/components/ui/copy-button";
import { requireUser } from "@/lib/auth/require-user";
import { roleAllows } from "@/lib/auth/roles";
import { env } from "@/lib/config/env";
import { flowShape } from "@/lib/crew/describe-crew";
import { crewsFor } from "@/lib/crew/registry";
import type { AgentDef } from "@/lib/crew/schema";
import { crewForPage } from "@/lib/deployments/crew-for-page";
import { chooseModel } from "@/lib/llm/choose-model";

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

export default async function CrewPage({ params }: { params: Promise<{ crew: string }> }) {
  const { crew: slug } = await params;
  const { user, principal } = await requireUser();
  const crew = await crewForPage(principal, slug);
  if (!crew) notFound();
  const remote = crew.slug.startsWith("@");
  const warnings = fileWarnings(crewsFor(principal).warnings, crew.slug);
  const canStart = roleAllows(user.role, "start");
  // The models runs use: LLM_OVERRIDE's when set, not the crew file's.
  const modelOf = (a: AgentDef) => chooseModel(a, env()).ref.id;
  // A run that cannot succeed (a model's key missing) is said beside the form, with the fix.
  const blocked = remote ? [] : setupProblems(crew, env());
  const curl = kickoffCurl(crew.slug, crew.inputs);
  return (
    <>
      <PageHeader title={crew.name} description={crew.description ?? undefined}>
        <CrewBadges crew={crew} remote={remote} models={[...new Set(crew.agents.map(modelOf))]} />
      </PageHeader>
      <CrewWarnings warnings={warnings} />
      {crew.flow && (
        <div className="mb-6">
          <FlowGraph crew={crew.slug} methods={flowShape(crew.flow)} />
        </div>
      )}
      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="grid min-w-0 grid-cols-[minmax(0,1fr)] content-start gap-6">
          <StartCard>
            {canStart ? (
              <KickoffForm crew={crew.slug} blocked={blocked} />
            ) : (
              <Alert tone="info">Your role ({user.role}) can watch runs but not start them.</Alert>
            )}
          </StartCard>
          <RecentRunsSection slug={crew.slug} remote={remote} blocked={blocked.length > 0} />
          {!remote && (
            <>
              <SchedulesList crew={crew.slug} canEdit={canStart} />
              <TriggersList crew={crew.slug} canEdit={canStart} />
            </>
          )}
        </div>
        <div className="grid min-w-0 grid-cols-[minmax(0,1fr)] content-start gap-6">
          {remote ? <RemoteCard source={crew.source[0]} /> : <TasksCard crew={crew} />}
          {!remote && crew.agents.length > 0 && (
            <AgentsCard
              agents={crew.agents}
              servers={crew.mcp_servers ?? []}
              modelOf={modelOf}
              override={env().LLM_OVERRIDE}
            />
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
