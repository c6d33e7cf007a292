import { expect } from "vitest";
import type { Principal } from "@/lib/auth/principal";
import type { CrewDef } from "@/lib/crew/schema";
import type { Db } from "@/lib/db/types";
import { AppError } from "@/lib/errors";
import type { OpenReview } from "@/lib/run-model/review-types";
import type { ExecutionRow, Review } from "@/lib/run-model/types";
import { FIXTURE_CREWS } from "./harness";
import { queryAs } from "./rows";

// Runs with tasks awaiting review on a real database, and the people who review them, for the
// unit tests of lib/reviews (claims, decisions). Modules are imported lazily: the test file sets
// its environment (embeddedDbForFile) before lib/config/env.ts is first read.

// The fixture crews, read once per test file rather than once per run made.
let fixtures: Promise<Map<string, CrewDef>> | undefined;
const fixtureCrews = () => {
  fixtures ??= import("@/lib/crew/load-crews").then((m) => m.loadCrews(FIXTURE_CREWS).crews);
  return fixtures;
};

const person = (n: number, email: string, role: string, teams: string[] = []) => ({
  id: `cccccccc-0000-4000-8000-00000000000${n}`,
  email,
  role,
  teams,
});
/** Ada and Bob review, Carol reviews in the team `legal`, Dan administers, Eve only views. */
export const PEOPLE = {
  ada: person(1, "ada@example.com", "reviewer"),
  bob: person(2, "bob@example.com", "reviewer"),
  carol: person(3, "carol@example.com", "reviewer", ["legal"]),
  dan: person(4, "dan@example.com", "admin"),
  eve: person(5, "eve@example.com", "viewer"),
};
export type Person = (typeof PEOPLE)[keyof typeof PEOPLE];
export const as = (p: Person): Principal =>
  ({ kind: "session", userId: p.id, email: p.email, role: p.role }) as Principal;
export const org: Principal = { kind: "org", tokenId: null };

export async function addPeople(db: Db) {
  for (const p of Object.values(PEOPLE))
    await db.query("INSERT INTO users (id, email, role, teams) VALUES ($1, $2, $3, $4)", [
      p.id,
      p.email,
      p.role,
      p.teams,
    ]);
}

/**
 * A run of fixture crew `crew` paused on the review of tasks `open` (by default its first task),
 * as the engine leaves it: the tasks before them completed, the rest pending. `reviews` are
 * earlier decisions of the first open task; `review` changes its open review.
 */
export async function awaitingReview(
  db: Db,
  crew: string,
  {
    open,
    reviews = [],
    review = {},
    inputs = { subject: "rent" },
    owner = org,
  }: {
    open?: string[];
    reviews?: Review[];
    review?: Partial<OpenReview>;
    inputs?: Record<string, string>;
    /** Who starts it: their runs are what a user token of theirs may see. */
    owner?: Principal;
  } = {},
): Promise<string> {
  const { createExecution } = await import("@/lib/runs/create-execution");
  const { mutateExecution } = await import("@/lib/runs/execution-store");
  const { openReview, reviewColumns } = await import("@/lib/run-model/open-reviews");
  const def = (await fixtureCrews()).get(crew);
  if (!def) throw new Error(`fixture crew ${crew} missing`);
  const id = await createExecution({
    db,
    crew: def,
    principal: owner,
    request: { inputs },
  });
  await db.tx((q) => mutateExecution(q, { id }, () => ({ patch: { status: "running" } })));
  await db.tx((q) =>
    mutateExecution(q, { id }, (row) => {
      const ids = open ?? [row.tasks[0]?.task_id as string];
      const first = row.tasks.findIndex((t) => ids.includes(t.task_id));
      const now = new Date();
      const tasks = row.tasks.map((t, i) =>
        ids.includes(t.task_id)
          ? {
              ...t,
              status: "pending_human_input" as const,
              attempts: reviews.length + 1,
              output: `${t.task_id} draft`,
              reviews: t.task_id === ids[0] ? reviews : [],
            }
          : i < first
            ? { ...t, status: "completed" as const, attempts: 1, output: `${t.task_id} done` }
            : t,
      );
      const opened = row.crew_snapshot.tasks
        .filter((d) => ids.includes(d.id))
        .map((d) => openReview(d, reviews.length + 1, `${d.id} draft`, now))
        .map((r) => (r.task_id === ids[0] ? { ...r, ...review } : r));
      return {
        patch: { status: "pending_human_input", tasks, ...reviewColumns(opened, tasks) },
      };
    }),
  );
  return id;
}

export async function rowOf(db: Db, id: string) {
  const { rows } = await queryAs<ExecutionRow>(db, "SELECT * FROM executions WHERE id = $1", [id]);
  return rows[0] as ExecutionRow;
}

/** The run's log: each event's type, task and data, in order. */
export async function eventsOf(db: Db, id: string) {
  const { rows } = await queryAs<{
    type: string;
    task_id: string | null;
    data: Record<string, unknown>;
  }>(db, "SELECT type, task_id, data FROM execution_events WHERE execution_id = $1 ORDER BY seq", [
    id,
  ]);
  return rows;
}

/** A send-back decided earlier, as the task's `reviews` keeps it. */
export const sentBack = (attempt: number): Review => ({
  attempt,
  is_approve: false,
  feedback: "redo",
  output: "older",
  reviewer: "ada@example.com",
  at: new Date(Date.now() - 60_000).toISOString(),
});

/** The AppError `promise` fails with, checked to have `status`. */
export async function refused(promise: Promise<unknown>, status: number): Promise<AppError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, `expected a ${status}`).toBeInstanceOf(AppError);
  expect((err as AppError).status).toBe(status);
  return err as AppError;
}
