import type { Metadata } from "next";
import { CrewCard } from "@/components/crew-card";
import { env } from "@/lib/config/env";
import { crewCatalog } from "@/lib/crew/registry";

export const metadata: Metadata = { title: "Crews" };
export const dynamic = "force-dynamic";

export default function CrewsPage() {
  const { crews, errors } = crewCatalog();
  return (
    <>
      <h1>Crews</h1>
      {crews.size === 0 && (
        <p className="muted">No crews in {env().CREWS_DIR}. Add a folder with a crew.yaml.</p>
      )}
      {[...crews.values()].map((crew) => (
        <CrewCard key={crew.slug} crew={crew} />
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
