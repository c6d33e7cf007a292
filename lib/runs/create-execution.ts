import crypto from "node:crypto";
import { ownerOf, type Principal } from "@/lib/auth/principal";
import type { KickoffRequest } from "@/lib/contract/crew";
import { kickoffState } from "@/lib/crew/flow-state";
import type { CrewDef } from "@/lib/crew/schema";
import { validInputs } from "@/lib/crew/valid-inputs";
import { inputSpecsOf } from "@/lib/crew/validate-inputs";
import { commitTogether } from "@/lib/db/group-commit";
import type { Db } from "@/lib/db/types";
import { errorMessage, errors } from "@/lib/errors";
import { type FirstEvent, firstEntries } from "@/lib/ledger/first-entries";
import { initialProgress } from "@/lib/run-model/flow-progress";
import type { TaskState, WebhookUrls } from "@/lib/run-model/types";
import { integrationToken } from "@/lib/tracker/integration-token";
import type { InputValue } from "@/lib/util/placeholders";
import { assertWebhookUrlsAllowed } from "@/lib/webhooks/check-urls";
import { streamSubscription } from "@/lib/webhooks/stream-subscription";
import { definitionKey, storeDefinition } from "./crew-definitions";

/** Agents with `apps` call integration actions, which need the integration token. */
function assertIntegrationReady(crew: CrewDef) {
  if (!crew.agents.some((a) => a.apps.length)) return;
  try {
    integrationToken();
  } catch (err) {
    throw errors.unprocessable(
      `This crew's agents use apps, which need an integration token: set SERVICE_PLATFORM_INTEGRATION_TOKEN, or make DATA_DIR writable so one can be generated (${errorMessage(err)}).`,
    );
  }
}

type CrewJson = { definition: string; key: string; tasks: string; totalTasks: number };

// A crew definition is never changed in place (a reload makes new objects), so its JSON — the
// definition its runs name, its key, and its tasks' initial state — is made once per definition,
// not once per kickoff; a reloaded crew is a new entry, and forgotten definitions are collected.
const serialized = new WeakMap<CrewDef, CrewJson>();

export function crewJson(crew: CrewDef): CrewJson {
  let json = serialized.get(crew);
  if (!json) {
    const tasks: TaskState[] = crew.tasks.map((t) => ({
      task_id: t.id,
      name: t.name,
      agent: t.agent,
      human_input: t.human_input,
      status: "pending",
      attempts: 0,
      output: null,
      started_at: null,
      finished_at: null,
      execution_time: null,
    }));
    const definition = JSON.stringify(crew);
    json = {
      definition,
      key: definitionKey(definition),
      tasks: JSON.stringify(tasks),
      totalTasks: tasks.length,
    };
    serialized.set(crew, json);
  }
  return json;
}

/** Validates the inputs against the crew and queues an execution; a worker picks it up. */
export async function createExecution({
  db,
  crew,
  principal,
  request,
  origin,
  first,
}: {
  db: Db;
  crew: CrewDef;
  principal: Principal;
  request: KickoffRequest;
  /** The run this one starts again (lib/runs/rerun-execution.ts). */
  origin?: { id: string; kind: "rerun" | "fork" };
  /** A fork's tasks as it starts (some already completed) and the events that say so. */
  first?: { tasks: TaskState[]; events: Omit<FirstEvent, "seq" | "created_at">[] };
}): Promise<string> {
  await assertWebhookUrlsAllowed(request);
  assertIntegrationReady(crew);
  // Inputs the crew does not use are ignored, not stored.
  const inputs: Record<string, InputValue> = validInputs(crew, request.inputs);
  // A flow starts from its state (defaults, then inputs), checked against its schema.
  const flow = crew.flow
    ? initialProgress(
        crew.flow,
        kickoffState(
          crew.flow,
          inputs,
          request.inputs,
          new Set(inputSpecsOf(crew).flatMap((s) => (s.type === "json" ? [s.name] : []))),
        ),
      )
    : null;
  const webhooks: WebhookUrls = {
    task: request.taskWebhookUrl,
    step: request.stepWebhookUrl,
    crew: request.crewWebhookUrl,
    ...(request.webhooks ? { stream: streamSubscription(request.webhooks) } : {}),
  };
  const { definition, key, tasks, totalTasks } = crewJson(crew);
  await storeDefinition(db, key, definition); // written once per definition, not per run
  const id = crypto.randomUUID();
  // A fork's first events follow the queued one, stamped now; their ledger entries are chained
  // here and written in the same statement as the run itself.
  const at = new Date().toISOString();
  const firstEvents: FirstEvent[] = (first?.events ?? []).map((e, i) => ({
    ...e,
    seq: i + 2,
    created_at: at,
  }));
  const ledger = firstEntries(id, firstEvents);
  const values = [
    id,
    crew.slug,
    ownerOf(principal),
    principal.kind === "session" ? null : principal.tokenId,
    JSON.stringify(inputs),
    request.meta ? JSON.stringify(request.meta) : null,
    JSON.stringify(webhooks),
    key,
    first ? JSON.stringify(first.tasks) : tasks,
    // Who started it: the signed-in person, or the token (its label, else its prefix).
    principal.kind === "session" ? "dashboard" : "api",
    principal.kind === "session" ? principal.email : null,
    JSON.stringify({
      crew: crew.slug,
      inputs,
      total_tasks: totalTasks,
      ...(origin ? { origin: { execution_id: origin.id, kind: origin.kind } } : {}),
    }),
    flow ? JSON.stringify(flow) : null,
    origin?.id ?? null,
    origin?.kind ?? null,
    1 + firstEvents.length,
    JSON.stringify(firstEvents),
    JSON.stringify(ledger),
  ];
  // One statement, its own transaction, shared with the other kickoffs of this moment
  // (lib/db/group-commit.ts): the execution, its first event and the wake-up of idle workers (in
  // any process; NOTIFY is delivered only if this commits).
  await commitTogether(db, (p, tag) => {
    const [v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15, v16, v17, v18] =
      values.map(p);
    return {
      ctes: [
        `${tag}execution AS (
           INSERT INTO executions (id, crew, status, owner_user_id, token_id, inputs, meta, webhooks,
                                   crew_def, tasks, last_seq, started_via, started_by_name, flow,
                                   origin_id, origin_kind)
           VALUES (${v1}::uuid, ${v2}, 'queued', ${v3}, ${v4}::uuid, ${v5}::jsonb, ${v6}::jsonb, ${v7}::jsonb,
                   ${v8}, ${v9}::jsonb, ${v16}::int, ${v10},
                   COALESCE(${v11}, (SELECT COALESCE(label, display_prefix) FROM api_tokens WHERE id = ${v4}::uuid), 'CREW_TOKEN'),
                   ${v13}::jsonb, ${v14}::uuid, ${v15})
           RETURNING id)`,
        `${tag}queued AS (
           INSERT INTO execution_events (execution_id, seq, type, data)
           SELECT id, 1, 'execution_queued', ${v12}::jsonb FROM ${tag}execution
           RETURNING execution_id)`,
        `${tag}firsts AS (
           INSERT INTO execution_events (execution_id, seq, type, task_id, attempt, data, created_at)
           SELECT x.id, e.seq, e.type, e.task_id, e.attempt, e.data, e.created_at
             FROM ${tag}execution x,
                  jsonb_to_recordset(${v17}::jsonb) AS e(seq int, type text, task_id text,
                                                       attempt int, data jsonb, created_at timestamptz)
           RETURNING execution_id)`,
        `${tag}ledger AS (
           INSERT INTO review_ledger (execution_id, position, event_seq, at, actor, action, task_id,
                                      attempt, output_sha256, decision, effect, prev_hash, hash)
           SELECT x.id, l.position, l.event_seq, l.at, l.actor, l.action, l.task_id, l.attempt,
                  l.output_sha256, l.decision, l.effect, l.prev_hash, l.hash
             FROM ${tag}execution x,
                  jsonb_to_recordset(${v18}::jsonb) AS l(position int, event_seq int, at timestamptz,
                    actor text, action text, task_id text, attempt int, output_sha256 text,
                    decision jsonb, effect text, prev_hash text, hash text)
           RETURNING execution_id)`,
      ],
      reads: [],
      applied: `EXISTS (SELECT 1 FROM ${tag}execution)`,
      notify: [{ channel: "crewdeck_work", payload: id }],
    };
  });
  return id;
}
