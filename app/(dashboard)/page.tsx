import { CrewCard } from "@/components/crew-card";
import { env } from "@/lib/config/env";
import { crewCatalog } from "@/lib/crew/registry";

export const dynamic = "force-dynamic";

// Until the dashboard lands: what is served here and how to call it.
export default function Home() {
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
      <h2>Start a run</h2>
      <pre>{`curl -X POST http://localhost:${env().PORT}/api/crews/<crew>/kickoff \\
  -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json" \\
  -d '{"inputs": {"topic": "..."}}'`}</pre>
      <p className="muted">
        Get a token with <code>npm run token -- create --org</code>. See the{" "}
        <a href="/docs/api">API reference</a>.
      </p>
    </>
  );
}
