import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ExperimentsHome } from "@/components/experiments/experiments-home";
import { PageHeader } from "@/components/shell/page-header";
import { Alert } from "@/components/ui/alert";
import { requireUser } from "@/lib/auth/require-user";
import { roleAllows } from "@/lib/auth/roles";
import { crewForPage } from "@/lib/deployments/crew-for-page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Experiments" };

/** A crew's datasets, variants and experiments. */
export default async function ExperimentsPage({ params }: { params: Promise<{ crew: string }> }) {
  const { crew: slug } = await params;
  const { user, principal } = await requireUser();
  const crew = await crewForPage(principal, slug);
  if (!crew) notFound();
  const canEdit = roleAllows(user.role, "start");
  return (
    <>
      <PageHeader
        title="Experiments"
        description={
          <>
            Run rows of inputs through variants of{" "}
            <Link href={`/crews/${encodeURIComponent(crew.slug)}`} className="underline">
              {crew.name}
            </Link>{" "}
            and compare what they produce, with the outputs reviewers approved as the yardstick.
          </>
        }
      />
      {crew.slug.startsWith("@") ? (
        <Alert tone="info">
          A remote deployment's crew runs on the deployment: experiment with it where it runs.
        </Alert>
      ) : (
        <ExperimentsHome
          crew={crew.slug}
          canEdit={canEdit}
          canReview={roleAllows(user.role, "review")}
          agents={crew.agents.map((a) => ({
            id: a.id,
            role: a.role,
            goal: a.goal,
            backstory: a.backstory,
            llm: a.llm ?? "",
          }))}
          tasks={crew.tasks.map((t) => ({
            id: t.id,
            description: t.description,
            expected_output: t.expected_output,
          }))}
          flow={!!crew.flow}
        />
      )}
    </>
  );
}
