import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CopyButton } from "@/components/copy-button";
import { KickoffForm } from "@/components/kickoff-form";
import { requireUser } from "@/lib/auth/require-user";
import { roleAllows } from "@/lib/auth/roles";
import { crewForPage } from "@/lib/deployments/crew-for-page";

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

export default async function CrewPage({ params }: { params: Promise<{ crew: string }> }) {
  const { crew: slug } = await params;
  const { user, principal } = await requireUser();
  const crew = await crewForPage(principal, slug);
  if (!crew) notFound();
  const remote = crew.slug.startsWith("@");
  const canStart = roleAllows(user.role, "start");
  const body = JSON.stringify({ inputs: Object.fromEntries(crew.inputs.map((i) => [i, "…"])) });
  const curl = [
    `curl -X POST "$CREWDECK_URL/api/crews/${crew.slug}/kickoff"`,
    `  -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json"`,
    `  -d '${body}'`,
  ].join(" \\\n");
  return (
    <>
      <h1>{crew.name}</h1>
      {crew.description && <p>{crew.description}</p>}
      <div className="columns">
        <section className="card">
          <h2 style={{ marginTop: 0 }}>Start a run</h2>
          {canStart ? (
            <KickoffForm crew={crew.slug} />
          ) : (
            <p className="muted">Your role ({user.role}) can watch runs but not start them.</p>
          )}
        </section>
        {remote ? (
          <section className="card">
            <h2 style={{ marginTop: 0 }}>Remote deployment</h2>
            <p>
              Runs on <code>{crew.source[0]}</code>. Its form comes from the deployment's{" "}
              <code>/inputs</code>; its runs report back by webhook and by polling, and are reviewed
              here like local ones.
            </p>
            <p>
              Through this Crewdeck: <code>/api/crews/{crew.slug}</code>
            </p>
          </section>
        ) : (
          <section className="card">
            <h2 style={{ marginTop: 0 }}>Agents</h2>
            <ul>
              {crew.agents.map((a) => (
                <li key={a.id}>
                  <strong>{a.role}</strong>{" "}
                  <span className="muted">
                    ({a.id}, {a.llm ?? "default model"})
                  </span>
                </li>
              ))}
            </ul>
            <h2>Tasks</h2>
            <ol>
              {crew.tasks.map((t) => (
                <li key={t.id}>
                  {t.name} <span className="muted">— {t.agent}</span>
                  {t.human_input && <span className="badge">review</span>}
                </li>
              ))}
            </ol>
            <h2>API</h2>
            <p>
              Base URL: <code>/api/crews/{crew.slug}</code>
            </p>
            <pre>{curl}</pre>
            <CopyButton text={curl} label="Copy curl example" />
          </section>
        )}
      </div>
    </>
  );
}
