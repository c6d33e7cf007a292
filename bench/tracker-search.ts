// search_issue over 10,000 issues of the embedded tracker with a 3-group filter: p50/p95 of the
// action itself (validation, SQL, JSON), in process. Bounded: ISSUES rows, RUNS searches.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrate } from "@/lib/db/migrations";
import { openEmbedded } from "@/lib/db/open";
import { executeAction } from "@/lib/tracker/actions";
import { seedDemoWorkspace } from "@/lib/tracker/seed";

const ISSUES = Number(process.env.ISSUES ?? 10_000);
const RUNS = Number(process.env.RUNS ?? 50);

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-bench-tracker-"));
  const db = await openEmbedded(dir);
  await migrate(db);
  await seedDemoWorkspace(db);
  const words = [
    "checkout",
    "login",
    "invoice",
    "search",
    "upload",
    "export",
    "billing",
    "profile",
  ];
  await db.query(
    `INSERT INTO tracker_issues (id, team_id, number, identifier, title, description, state_id, priority, created_at)
     SELECT gen_random_uuid(), t.id, 1000 + g, 'ENG-' || (1000 + g),
            'Bug in ' || ($1::text[])[1 + g % 8] || ' #' || g, 'Steps to reproduce ' || g, s.id, g % 5,
            now() - (g || ' minutes')::interval
       FROM generate_series(1, $2::int) g, tracker_teams t, LATERAL (SELECT id FROM tracker_states WHERE team_id = t.id LIMIT 1) s
      WHERE t.key = 'ENG'`,
    [words, ISSUES],
  );
  const filter = {
    operator: "OR",
    conditions: [
      {
        operator: "AND",
        conditions: [
          { field: "title", operator: "$stringContains", value: "checkout" },
          { field: "number", operator: "$numberGreaterThan", value: 5000 },
        ],
      },
      {
        operator: "AND",
        conditions: [
          { field: "title", operator: "$stringStartsWith", value: "Bug in login" },
          {
            field: "createdAt",
            operator: "$dateTimeAfter",
            value: new Date(Date.now() - 86_400_000).toISOString(),
          },
        ],
      },
      {
        operator: "AND",
        conditions: [{ field: "number", operator: "$numberLessThanOrEqualTo", value: 1010 }],
      },
    ],
  };
  const times: number[] = [];
  let found = 0;
  for (let i = 0; i < RUNS + 5; i++) {
    const t0 = performance.now();
    const r = (await executeAction(db, "search_issue", {
      queryTerm: "bug",
      issueFilterFormula: filter,
    })) as { issues: unknown[] };
    if (i >= 5) times.push(performance.now() - t0); // the first few warm the caches
    found = r.issues.length;
  }
  times.sort((a, b) => a - b);
  const pct = (p: number) =>
    (times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ?? 0).toFixed(1);
  console.log(
    `search_issue over ${ISSUES} issues, 3-group filter: p50 ${pct(50)} ms, p95 ${pct(95)} ms (${found} results, limit 50)`,
  );
  const row = `| ${new Date().toISOString().slice(0, 16).replace("T", " ")} | ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version} | tracker search_issue, ${ISSUES} issues, 3-group filter (embedded) | – | – | p50 ${pct(50)} | p95 ${pct(95)} | |\n`;
  fs.appendFileSync(path.join(import.meta.dirname, "RESULTS.md"), row);
  await db.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
