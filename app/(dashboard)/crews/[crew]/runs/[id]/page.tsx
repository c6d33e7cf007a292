import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { RunView } from "@/components/run/run-view";
import { requireUser } from "@/lib/auth/require-user";
import { roleAllows } from "@/lib/auth/roles";
import { flowShape } from "@/lib/crew/describe-crew";
import { getDb } from "@/lib/db";
import { crewForPage } from "@/lib/deployments/crew-for-page";
import { shortId } from "@/lib/format/id";
import { loadModelPrices } from "@/lib/run-model/pricing";
import { toStatusResponse } from "@/lib/runs/status-view";
import { runOr404 } from "../../run-or-404";

export const dynamic = "force-dynamic";

export async function generateMetadata({
  params,
}: {
  params: Promise<{ crew: string; id: string }>;
}): Promise<Metadata> {
  await requireUser();
  const { id } = await params;
  return { title: `Run ${shortId(id)}` };
}

export default async function RunPage({
  params,
  searchParams,
}: {
  params: Promise<{ crew: string; id: string }>;
  searchParams: Promise<{ task?: string | string[] }>;
}) {
  const { crew: slug, id } = await params;
  const { user, principal } = await requireUser();
  const { task } = await searchParams;
  const crew = await crewForPage(principal, slug, { existingRun: true });
  if (!crew) notFound();
  // The first view arrives rendered (header, figures, the waterfall's tasks); the page then
  // follows the run live through /status and the event stream like any client.
  const db = await getDb();
  const row = await runOr404({ db, crew: crew.slug, id, principal });
  const initialStatus = toStatusResponse(row, await loadModelPrices(db));
  const renderedAt = Date.now();
  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-muted-foreground text-sm">
        <ol className="flex flex-wrap items-center gap-1.5">
          <li>
            <Link href="/runs" className="hover:text-foreground hover:underline">
              Runs
            </Link>
          </li>
          <li aria-hidden>/</li>
          <li>
            <Link href={`/crews/${crew.slug}`} className="text-link hover:underline">
              {crew.name}
            </Link>
          </li>
          <li aria-hidden>/</li>
          <li aria-current="page" className="font-mono text-xs">
            {shortId(id)}
          </li>
        </ol>
      </nav>
      <RunView
        crew={crew.slug}
        crewName={crew.name}
        id={id}
        initialStatus={initialStatus}
        renderedAt={renderedAt}
        canStop={roleAllows(user.role, "stop")}
        canStart={roleAllows(user.role, "start")}
        canReview={roleAllows(user.role, "review")}
        me={user.email}
        expectedOutputs={Object.fromEntries(crew.tasks.map((t) => [t.id, t.expected_output]))}
        initialTask={typeof task === "string" ? task : undefined}
        flowMethods={crew.flow ? flowShape(crew.flow) : undefined}
      />
    </>
  );
}
