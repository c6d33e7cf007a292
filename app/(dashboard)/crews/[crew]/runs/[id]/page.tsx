import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { RunView } from "@/components/run-view";
import { requireUser } from "@/lib/auth/require-user";
import { roleAllows } from "@/lib/auth/roles";
import { crewForPage } from "@/lib/deployments/crew-for-page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Run" };

export default async function RunPage({
  params,
}: {
  params: Promise<{ crew: string; id: string }>;
}) {
  const { crew: slug, id } = await params;
  const { user, principal } = await requireUser();
  const crew = await crewForPage(principal, slug);
  if (!crew) notFound();
  return (
    <>
      <p className="muted small">
        <a href={`/crews/${crew.slug}`}>{crew.name}</a> · run <code>{id}</code>
      </p>
      <h1>{crew.name}</h1>
      <RunView
        crew={crew.slug}
        id={id}
        canStop={roleAllows(user.role, "stop")}
        canReview={roleAllows(user.role, "review")}
        expectedOutputs={Object.fromEntries(crew.tasks.map((t) => [t.id, t.expected_output]))}
      />
    </>
  );
}
