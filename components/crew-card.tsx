import type { CrewDef } from "@/lib/crew/schema";

// One crew at a glance: what it needs, what it does, where it is served.
export function CrewCard({ crew }: { crew: CrewDef }) {
  return (
    <section className="card">
      <h2 style={{ marginTop: 0 }}>{crew.name}</h2>
      {crew.description && <p>{crew.description}</p>}
      <p>
        Base URL: <code>/api/crews/{crew.slug}</code> · inputs:{" "}
        {crew.inputs.length ? crew.inputs.map((name) => <code key={name}>{name} </code>) : "none"}
      </p>
      <p className="muted">
        {crew.agents.length} agents · {crew.tasks.length} tasks:{" "}
        {crew.tasks.map((t) => `${t.name}${t.human_input ? " (review)" : ""}`).join(" → ")}
      </p>
    </section>
  );
}
