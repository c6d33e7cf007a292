import crypto from "node:crypto";
import { IdRow } from "@/lib/db/columns";
import type { Db } from "@/lib/db/types";

const STATES = [
  ["Backlog", "backlog"],
  ["Todo", "unstarted"],
  ["In Progress", "started"],
  ["Done", "completed"],
  ["Canceled", "canceled"],
] as const;

/** A small demo workspace on first start, so crews can file issues with no account anywhere. */
export async function seedDemoWorkspace(db: Db) {
  await db.tx(async (q) => {
    // Several processes may start at once: one seeds, the others find it done.
    await q.query("SELECT pg_advisory_xact_lock(7283191)");
    const { rows } = await q.query("SELECT 1 FROM tracker_teams LIMIT 1");
    if (rows.length) return;
    const eng = { id: crypto.randomUUID(), key: "ENG", name: "Engineering" };
    const teams = [eng, { id: crypto.randomUUID(), key: "OPS", name: "Operations" }];
    const ada = crypto.randomUUID();
    await q.query(
      "INSERT INTO tracker_users (id, name, email) VALUES ($1, 'Ada Lovelace', 'ada@example.com'), ($2, 'Grace Hopper', 'grace@example.com')",
      [ada, crypto.randomUUID()],
    );
    for (const team of teams) {
      await q.query("INSERT INTO tracker_teams (id, key, name) VALUES ($1, $2, $3)", [
        team.id,
        team.key,
        team.name,
      ]);
      for (const [i, [name, type]] of STATES.entries()) {
        await q.query(
          "INSERT INTO tracker_states (id, team_id, name, type, position) VALUES ($1, $2, $3, $4, $5)",
          [crypto.randomUUID(), team.id, name, type, i],
        );
      }
      await q.query(
        "INSERT INTO tracker_cycles (id, team_id, number, starts_at, ends_at) VALUES ($1, $2, 1, date_trunc('week', now()), date_trunc('week', now()) + interval '14 days')",
        [crypto.randomUUID(), team.id],
      );
    }
    for (const name of ["bug", "feature", "documentation"]) {
      await q.query("INSERT INTO tracker_labels (id, team_id, name) VALUES ($1, NULL, $2)", [
        crypto.randomUUID(),
        name,
      ]);
    }
    const todo = (
      await q.query(
        "SELECT id FROM tracker_states WHERE team_id = $1 AND name = 'Todo'",
        [eng.id],
        IdRow,
      )
    ).rows[0]?.id;
    const examples = [
      "Set up the release checklist",
      "Document the on-call rotation",
      "Fix flaky login test",
    ];
    for (const [i, title] of examples.entries()) {
      await q.query(
        `INSERT INTO tracker_issues (id, team_id, number, identifier, title, description, state_id, priority, assignee_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          crypto.randomUUID(),
          eng.id,
          i + 1,
          `ENG-${i + 1}`,
          title,
          "A demo issue.",
          todo,
          i + 1,
          ada,
        ],
      );
    }
    await q.query("UPDATE tracker_teams SET next_number = $2 WHERE id = $1", [
      eng.id,
      examples.length + 1,
    ]);
  });
}
