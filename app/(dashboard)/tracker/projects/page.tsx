import type { Metadata } from "next";
import { requireUser } from "@/lib/auth/require-user";
import { getDb } from "@/lib/db";
import { listProjects } from "@/lib/tracker/embedded/browse";

export const metadata: Metadata = { title: "Projects" };
export const dynamic = "force-dynamic";

export default async function ProjectsPage() {
  const { principal } = await requireUser();
  const projects = await listProjects(await getDb(), principal);
  return (
    <>
      <p className="muted small">
        <a href="/tracker">Issues</a>
      </p>
      <h1>Projects</h1>
      {projects.length === 0 && (
        <p className="muted">No projects yet. Agents create them with create_project.</p>
      )}
      {projects.map((p) => (
        <section key={p.id} className="card">
          <h2 style={{ marginTop: 0 }}>
            {p.name} <span className="badge">{p.state}</span>
          </h2>
          {p.description && <p>{p.description}</p>}
          <p className="muted small">
            Teams: {p.teams.join(", ")} · {p.issues} issues
          </p>
        </section>
      ))}
    </>
  );
}
