import type { Metadata } from "next";
import { CrewCard } from "@/components/crew-card";
import { requireUser } from "@/lib/auth/require-user";
import { env } from "@/lib/config/env";
import { crewsFor } from "@/lib/crew/registry";
import { getDb } from "@/lib/db";
import { remoteCrewDef } from "@/lib/deployments/remote-runs";
import { listDeployments } from "@/lib/deployments/store";

export const metadata: Metadata = { title: "Crews" };
export const dynamic = "force-dynamic";

export default async function CrewsPage() {
  const { principal } = await requireUser();
  const { crews, errors } = crewsFor(principal);
  const deployments = await listDeployments(await getDb(), principal);
  return (
    <>
      <h1>Crews</h1>
      {crews.size === 0 && (
        <p className="muted">No crews in {env().CREWS_DIR}. Add a folder with a crew.yaml.</p>
      )}
      {[...crews.values()].map((crew) => (
        <CrewCard key={crew.slug} crew={crew} />
      ))}
      {deployments.length > 0 && <h2>Remote deployments</h2>}
      {deployments.map((d) => (
        <CrewCard key={d.id} crew={remoteCrewDef(d)} />
      ))}
      {errors.map((e) => (
        <section key={`${e.slug}-${e.file}`} className="card error">
          <strong>{e.slug}</strong> failed to load: <code>{e.file}</code>
          {e.key && (
            <>
              {" "}
              at <code>{e.key}</code>
            </>
          )}
          : {e.reason}
        </section>
      ))}
    </>
  );
}
