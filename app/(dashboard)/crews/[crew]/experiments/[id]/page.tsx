import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ExperimentView } from "@/components/experiments/experiment-view";
import { ownerScope } from "@/lib/auth/principal";
import { requireUser } from "@/lib/auth/require-user";
import { roleAllows } from "@/lib/auth/roles";
import { getDb } from "@/lib/db";
import { crewForPage } from "@/lib/deployments/crew-for-page";
import { AppError } from "@/lib/errors";
import { getExperiment } from "@/lib/experiments/experiment-view";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Experiment" };

/** One experiment: progress, the matrix, and each row's outputs side by side. */
export default async function ExperimentPage({
  params,
}: {
  params: Promise<{ crew: string; id: string }>;
}) {
  const { crew: slug, id } = await params;
  const { user, principal } = await requireUser();
  const crew = await crewForPage(principal, slug, { existingRun: true });
  if (!crew || !/^[0-9a-f-]{36}$/i.test(id)) notFound();
  // Read here with the reader's scope (a user token's owner sees only their own), then live.
  const first = await getExperiment(await getDb(), ownerScope(crew.slug, principal), id).catch(
    (err) => {
      if (err instanceof AppError && err.status === 404) return null;
      throw err;
    },
  );
  if (!first) notFound();
  return (
    <ExperimentView
      crew={crew.slug}
      crewName={crew.name}
      initial={first}
      canStop={roleAllows(user.role, "stop")}
      canStart={roleAllows(user.role, "start")}
    />
  );
}
