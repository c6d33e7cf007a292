import { Boxes } from "lucide-react";
import type { Metadata } from "next";
import { CrewCard, type LastRun } from "@/components/crews/crew-card";
import { PageHeader } from "@/components/shell/page-header";
import { Alert } from "@/components/ui/alert";
import { EmptyState } from "@/components/ui/empty-state";
import type { Principal } from "@/lib/auth/principal";
import { requireUser } from "@/lib/auth/require-user";
import { roleAllows } from "@/lib/auth/roles";
import { env } from "@/lib/config/env";
import { crewsFor } from "@/lib/crew/registry";
import { getDb } from "@/lib/db";
import { remoteCrewDef } from "@/lib/deployments/remote-runs";
import { listDeployments } from "@/lib/deployments/store";
import { loadModelPrices } from "@/lib/run-model/pricing";
import { listExecutions } from "@/lib/runs/list-executions";
import { ListQuerySchema } from "@/lib/runs/list-query";

export const metadata: Metadata = { title: "Crews" };
export const dynamic = "force-dynamic";

async function lastRuns(principal: Principal, slugs: string[]) {
  const db = await getDb();
  const prices = await loadModelPrices(db);
  const rows = await Promise.all(
    slugs.map(async (crew): Promise<[string, LastRun]> => {
      const page = await listExecutions({
        db,
        principal,
        query: ListQuerySchema.parse({ crew, per_page: 1 }),
        prices,
      });
      const r = page.runs[0];
      return [crew, r ? { status: r.status, created_at: r.created_at } : null];
    }),
  );
  return new Map(rows);
}

export default async function CrewsPage() {
  const { user, principal } = await requireUser();
  const { crews, errors, warnings } = crewsFor(principal);
  const warned = new Map<string, typeof warnings>();
  for (const w of warnings) warned.set(w.slug, [...(warned.get(w.slug) ?? []), w]);
  const deployments = await listDeployments(await getDb(), principal);
  const all = [...crews.values(), ...deployments.map((d) => remoteCrewDef(d))];
  const last = await lastRuns(
    principal,
    all.map((c) => c.slug),
  );
  const canStart = roleAllows(user.role, "start");
  return (
    <>
      <PageHeader
        title="Crews"
        description="Each crew is a team of agents working through tasks in order. Open one to start a run."
      />
      <div className="grid gap-4">
        {errors.map((e) => (
          <Alert key={`${e.slug}-${e.file}`} tone="danger" title={`${e.slug} failed to load`}>
            <code className="font-mono text-xs">{e.file}</code>
            {e.key && (
              <>
                {" "}
                at <code className="font-mono text-xs">{e.key}</code>
              </>
            )}
            : {e.reason}
          </Alert>
        ))}
        {[...warned].map(([slug, list]) => (
          <Alert key={`warn-${slug}`} tone="warning" title={`${slug}: loaded with warnings`}>
            <ul className="grid gap-0.5">
              {list.map((w) => (
                <li key={`${w.file}-${w.key}`}>
                  <code className="font-mono text-xs">{w.file}</code>
                  {w.key && (
                    <>
                      {" "}
                      at <code className="font-mono text-xs">{w.key}</code>
                    </>
                  )}
                  : {w.message}
                </li>
              ))}
            </ul>
          </Alert>
        ))}
        {all.length === 0 ? (
          <EmptyState icon={Boxes} title="No crews yet">
            Add a folder with a crew.yaml (or a CrewAI project) to{" "}
            <code className="font-mono">{env().CREWS_DIR}</code>, or connect a remote deployment in
            Settings.
          </EmptyState>
        ) : (
          <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {all.map((crew) => (
              <li key={crew.slug} className="grid">
                <CrewCard crew={crew} lastRun={last.get(crew.slug)} canStart={canStart} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </>
  );
}
