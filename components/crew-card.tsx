import type { CrewDef } from "@/lib/crew/schema";

// One crew at a glance: what it needs, what it does, where it is served.
export function CrewCard({ crew }: { crew: CrewDef }) {
  if (crew.slug.startsWith("@"))
    return (
      <section className="card">
        <h2 style={{ marginTop: 0 }}>
          <a href={`/crews/${crew.slug}`}>{crew.name}</a> <span className="badge">remote</span>
        </h2>
        <p>
          Served by <code>{crew.source[0]}</code> · through this Crewdeck:{" "}
          <code>/api/crews/{crew.slug}</code>
        </p>
      </section>
    );
  return (
    <section className="card">
      <h2 style={{ marginTop: 0 }}>
        <a href={`/crews/${crew.slug}`}>{crew.name}</a>
      </h2>
      {crew.description && <p>{crew.description}</p>}
      <p>
        Base URL: <code>/api/crews/{crew.slug}</code> · inputs:{" "}
        {crew.inputs.length ? crew.inputs.map((name) => <code key={name}>{name} </code>) : "none"}
      </p>
      <p className="muted">
        {plural(crew.agents.length, "agent")} · {plural(crew.tasks.length, "task")}:{" "}
        {crew.tasks.map((t) => `${t.name}${t.human_input ? " (review)" : ""}`).join(" → ")}
      </p>
    </section>
  );
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
