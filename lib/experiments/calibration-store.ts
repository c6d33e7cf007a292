import crypto from "node:crypto";
import { z } from "zod";
import { type Principal, principalName, type OwnerScope as Scope } from "@/lib/auth/principal";
import type { Calibration } from "@/lib/contract/calibrations";
import type { JudgeSpec } from "@/lib/contract/experiments";
import { REVIEW_CLOCK_NAME } from "@/lib/crew/review-policy";
import type { CrewDef } from "@/lib/crew/schema";
import { jsonArray, jsonObject, time } from "@/lib/db/columns";
import type { Db, Queryable } from "@/lib/db/types";
import { errors } from "@/lib/errors";
import { type InputValue, interpolate, PlaceholderBudgetError } from "@/lib/util/placeholders";
import { judgeKey } from "./judge";
import { cohenKappa, wilson } from "./stats";

// A calibration asks: when this judge says "good enough" (score ≥ pass_at), would the reviewers
// have approved? It takes the latest decisions people made on this crew's outputs (deadlines'
// and the system's are not people's), judges what each reviewer saw, and counts agreement.

type CalibrationItem = {
  execution_id: string;
  task_id: string;
  attempt: number;
  approved: boolean;
  output: string;
  /** The task as the crew describes it now, for the judge's prompt. */
  description?: string;
  expected_output?: string;
};
export type JudgedItem = { score: number | null; reason: string };

const Row = z.object({
  id: z.string(),
  crew: z.string(),
  judge_key: z.string(),
  judge: jsonObject<JudgeSpec>(),
  status: z.enum(["running", "completed", "failed"]),
  items: jsonArray<CalibrationItem>(),
  judged: jsonArray<JudgedItem>(),
  error: z.string().nullable(),
  created_by: z.string(),
  created_at: time,
  finished_at: time.nullable(),
});
export type CalibrationRow = z.infer<typeof Row>;
const SELECT =
  "SELECT id, crew, judge_key, judge, status, items, judged, error, created_by, created_at, finished_at FROM judge_calibrations";

const ItemRow = z.object({
  execution_id: z.string(),
  task_id: z.string(),
  attempt: z.number(),
  approved: z.boolean(),
  output: z.string(),
  inputs: jsonObject<Record<string, InputValue>>(),
});

/** Starts a calibration on the decisions the caller may see; 422 when there are none. */
export async function createCalibration(
  db: Db,
  crew: CrewDef,
  scope: Scope,
  principal: Principal,
  judge: JudgeSpec,
  limit: number,
): Promise<string> {
  const { rows: items } = await db.query(
    `SELECT e.id AS execution_id, t.value->>'task_id' AS task_id, (r.value->>'attempt')::int AS attempt,
            (r.value->>'is_approve')::boolean AS approved, r.value->>'output' AS output, e.inputs
       FROM executions e
       CROSS JOIN LATERAL jsonb_array_elements(e.tasks) t
       CROSS JOIN LATERAL jsonb_array_elements(coalesce(t.value->'reviews', '[]'::jsonb)) r
      WHERE e.crew = $1 AND ($2::uuid IS NULL OR e.owner_user_id = $2::uuid)
        AND r.value->>'reviewer' NOT IN ('system', '${REVIEW_CLOCK_NAME}')
        AND r.value->>'output' IS NOT NULL
        AND ($3::text IS NULL OR t.value->>'task_id' = $3)
      ORDER BY r.value->>'at' DESC
      LIMIT $4`,
    [scope.crew, scope.owner, judge.task ?? null, limit],
    ItemRow,
  );
  if (!items.length)
    throw errors.unprocessable(
      `No reviewed outputs of crew '${scope.crew}'${judge.task ? ` task '${judge.task}'` : ""} to calibrate on: a judge is calibrated against people's decisions.`,
    );
  const briefs = new Map(crew.tasks.map((t) => [t.id, t]));
  const described = items.map(({ inputs, ...i }) => {
    const fill = (text: string, field: string) =>
      interpolate(text, inputs, { field: `Task '${i.task_id}' ${field}` });
    try {
      return {
        ...i,
        description: fill(briefs.get(i.task_id)?.description ?? "", "description"),
        expected_output: fill(briefs.get(i.task_id)?.expected_output ?? "", "expected_output"),
      };
    } catch (err) {
      if (!(err instanceof PlaceholderBudgetError)) throw err;
      throw errors.unprocessable(`A reviewed run cannot be calibrated on: ${err.message}.`);
    }
  });
  const id = crypto.randomUUID();
  await db.query(
    `INSERT INTO judge_calibrations (id, crew, judge_key, judge, status, items, created_by)
     VALUES ($1, $2, $3, $4::jsonb, 'running', $5::jsonb, $6)`,
    [
      id,
      scope.crew,
      judgeKey(judge),
      JSON.stringify(judge),
      JSON.stringify(described),
      principalName(principal),
    ],
  );
  await db.query("SELECT pg_notify('crewdeck_experiments', $1)", [id]);
  return id;
}

function calibrationView(r: CalibrationRow): Calibration {
  const pairs = r.judged.flatMap((j, i) => {
    const item = r.items[i];
    return item && j.score !== null
      ? [{ approved: item.approved, predicted: j.score >= r.judge.pass_at }]
      : [];
  });
  const count = (p: boolean, a: boolean) =>
    pairs.filter((x) => x.predicted === p && x.approved === a).length;
  const confusion = {
    approve_approved: count(true, true),
    approve_sent_back: count(true, false),
    reject_approved: count(false, true),
    reject_sent_back: count(false, false),
  };
  const agree = confusion.approve_approved + confusion.reject_sent_back;
  const w = wilson(agree, pairs.length);
  return {
    id: r.id,
    crew: r.crew,
    judge: r.judge,
    judge_key: r.judge_key,
    status: r.status,
    total: r.items.length,
    judged: r.judged.length,
    agreement: w.rate,
    ci_low: w.low,
    ci_high: w.high,
    kappa: cohenKappa(
      confusion.approve_approved,
      confusion.approve_sent_back,
      confusion.reject_approved,
      confusion.reject_sent_back,
    ),
    confusion,
    // Verdicts are kept in the items' order, one per item judged so far.
    items: r.judged.flatMap((j, i) => {
      const item = r.items[i];
      if (!item) return [];
      return [
        {
          execution_id: item.execution_id,
          task_id: item.task_id,
          attempt: item.attempt,
          approved: item.approved,
          score: j.score,
          predicted: j.score === null ? null : j.score >= r.judge.pass_at,
          reason: j.reason,
        },
      ];
    }),
    error: r.error,
    created_by: r.created_by,
    created_at: r.created_at.toISOString(),
    finished_at: r.finished_at?.toISOString() ?? null,
  };
}

// A user token sees only the calibrations it started (their verdicts name its owner's runs).
const BY = "($2::text IS NULL OR created_by = $2)";
export const calibrationScope = (p: Principal) => (p.kind === "user" ? principalName(p) : null);

export async function getCalibration(q: Queryable, crew: string, by: string | null, id: string) {
  const { rows } = await q.query(
    `${SELECT} WHERE crew = $1 AND ${BY} AND id = $3::uuid`,
    [crew, by, id],
    Row,
  );
  if (!rows[0]) throw errors.notFound(`No calibration '${id}' for crew '${crew}'.`);
  return calibrationView(rows[0]);
}

export async function listCalibrations(q: Queryable, crew: string, by: string | null) {
  const { rows } = await q.query(
    `${SELECT} WHERE crew = $1 AND ${BY} ORDER BY created_at DESC LIMIT 50`,
    [crew, by],
    Row,
  );
  return rows.map((r) => {
    const { items: _items, ...rest } = calibrationView(r);
    return rest;
  });
}

/** The latest completed calibration of each judge, by its key. */
export async function latestCalibrations(q: Queryable, crew: string, keys: string[]) {
  const found = new Map<
    string,
    { id: string; agreement: number; ci_low: number; ci_high: number; n: number }
  >();
  if (!keys.length) return found;
  const { rows } = await q.query(
    `SELECT DISTINCT ON (judge_key) ${SELECT.slice("SELECT ".length)}
      WHERE crew = $1 AND judge_key = ANY($2::text[]) AND status = 'completed'
      ORDER BY judge_key, created_at DESC`,
    [crew, keys],
    Row,
  );
  for (const r of rows) {
    const v = calibrationView(r);
    if (v.agreement !== null && v.ci_low !== null && v.ci_high !== null)
      found.set(r.judge_key, {
        id: r.id,
        agreement: v.agreement,
        ci_low: v.ci_low,
        ci_high: v.ci_high,
        n:
          v.confusion.approve_approved +
          v.confusion.approve_sent_back +
          v.confusion.reject_approved +
          v.confusion.reject_sent_back,
      });
  }
  return found;
}

/** Running calibrations, for the worker to judge a few more items of each. */
export async function runningCalibrations(q: Queryable) {
  const { rows } = await q.query(
    `${SELECT} WHERE status = 'running' ORDER BY created_at LIMIT 5`,
    [],
    Row,
  );
  return rows;
}
