import { FolderKanban } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/shell/page-header";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { requireUser } from "@/lib/auth/require-user";
import { getDb } from "@/lib/db";
import { listProjects } from "@/lib/tracker/embedded/browse";

export const metadata: Metadata = { title: "Projects" };
export const dynamic = "force-dynamic";

export default async function ProjectsPage() {
  const { principal } = await requireUser();
  const { projects, more } = await listProjects(await getDb(), principal);
  return (
    <>
      <PageHeader
        title="Projects"
        description={`Projects in the embedded tracker, with their teams and issue counts${more ? " (the newest 200)" : ""}.`}
        actions={
          <Button asChild>
            <Link href="/tracker">Issues</Link>
          </Button>
        }
      />
      {projects.length === 0 ? (
        <EmptyState icon={FolderKanban} title="No projects yet">
          Agents create them with the <code className="font-mono">create_project</code> action.
        </EmptyState>
      ) : (
        <div className="grid gap-4 md:grid-cols-2">
          {projects.map((p) => (
            <Card key={p.id} aria-labelledby={`project-${p.id}`}>
              <CardHeader>
                <CardTitle id={`project-${p.id}`}>{p.name}</CardTitle>
                <Badge tone="outline">{p.state}</Badge>
              </CardHeader>
              <CardContent className="grid gap-2">
                {p.description && <p className="text-sm">{p.description}</p>}
                <CardDescription>
                  Teams: {p.teams.join(", ") || "none"} · {p.issues}{" "}
                  {p.issues === 1 ? "issue" : "issues"}
                </CardDescription>
              </CardContent>
            </Card>
          ))}
        </div>
      )}
    </>
  );
}
