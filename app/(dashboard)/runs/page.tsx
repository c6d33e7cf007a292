import type { Metadata } from "next";
import { Suspense } from "react";
import { RunsTable } from "@/components/runs-table";
import { crewCatalog } from "@/lib/crew/registry";
import { getDb } from "@/lib/db";
import { listDeployments } from "@/lib/deployments/store";

export const metadata: Metadata = { title: "Runs" };
export const dynamic = "force-dynamic";

export default async function RunsPage() {
  const crews = [...crewCatalog().crews.values()].map((c) => ({ slug: c.slug, name: c.name }));
  const deployments = (await listDeployments(await getDb())).map((d) => ({
    slug: d.slug,
    name: d.name,
  }));
  return (
    <>
      <h1>Runs</h1>
      <Suspense>
        <RunsTable crews={crews} deployments={deployments} />
      </Suspense>
    </>
  );
}
