import type { Metadata } from "next";
import { Suspense } from "react";
import { RunsList } from "@/components/runs/runs-list";
import { PageHeader } from "@/components/shell/page-header";
import { requireUser } from "@/lib/auth/require-user";
import { roleAllows } from "@/lib/auth/roles";
import { crewsFor } from "@/lib/crew/registry";
import { getDb } from "@/lib/db";
import { listDeployments } from "@/lib/deployments/store";

export const metadata: Metadata = { title: "Runs" };
export const dynamic = "force-dynamic";

export default async function RunsPage() {
  const { user, principal } = await requireUser();
  const crews = [...crewsFor(principal).crews.values()].map((c) => ({
    slug: c.slug,
    name: c.name,
  }));
  const deployments = (await listDeployments(await getDb(), principal)).map((d) => ({
    slug: d.slug,
    name: d.name,
  }));
  return (
    <>
      <PageHeader
        title="Runs"
        description="Every run of every crew: filter, open one, or act on several at once."
      />
      <Suspense>
        <RunsList crews={crews} deployments={deployments} canAct={roleAllows(user.role, "start")} />
      </Suspense>
    </>
  );
}
