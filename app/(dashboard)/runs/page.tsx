import type { Metadata } from "next";
import { Suspense } from "react";
import { RunsTable } from "@/components/runs-table";
import { crewCatalog } from "@/lib/crew/registry";

export const metadata: Metadata = { title: "Runs" };
export const dynamic = "force-dynamic";

export default function RunsPage() {
  const crews = [...crewCatalog().crews.values()].map((c) => ({ slug: c.slug, name: c.name }));
  return (
    <>
      <h1>Runs</h1>
      <Suspense>
        <RunsTable crews={crews} />
      </Suspense>
    </>
  );
}
