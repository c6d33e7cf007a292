import crypto from "node:crypto";
import { ownerOf, type Principal, principalName, reachOf } from "@/lib/auth/principal";
import type { KickoffRequest } from "@/lib/contract/crew";
import { kickoffState } from "@/lib/crew/flow-state";
import type { CrewDef } from "@/lib/crew/schema";
import { validInputs } from "@/lib/crew/valid-inputs";
import { inputSpecsOf } from "@/lib/crew/validate-inputs";
import { commitTogether, writePiece } from "@/lib/db/group-commit";
import type { Db, Queryable } from "@/lib/db/types";
import { errorMessage, errors } from "@/lib/errors";
import { type FirstEvent, firstEntries } from "@/lib/ledger/first-entries";
import { type FlowProgress, initialProgress } from "@/lib/run-model/flow-progress";
import { pendingTask } from "@/lib/run-model/pending-task";
import type { ProtocolPush, TaskState, WebhookUrls } from "@/lib/run-model/types";
import { integrationToken } from "@/lib/tracker/integration-token";
import type { InputValue } from "@/lib/util/placeholders";
import { assertWebhookUrlsAllowed } from "@/lib/webhooks/check-urls";
import { streamSubscription } from "@/lib/webhooks/stream-subscription";
import { afterStops, withConcurrency } from "./concurrency";
import { definitionKey, storeDefinition } from "./crew-definitions";
import { executionPiece, type Starter } from "./execution-insert";

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

/** The crew's tasks as a new run holds them: pending, never tried. */
export const initialTasks = (crew: CrewDef): TaskState[] =>
  crew.tasks.map((t) =>
    pendingTask({ task_id: t.id, name: t.name, agent: t.agent, human_input: t.human_input }),
  );

type CrewJson = { definition: string; key: string; tasks: string; totalTasks: number };

// A crew definition is never changed in place (a reload makes new objects), so its JSON — the
// definition its runs name, its key, and its tasks' initial state — is made once per definition,
// not once per kickoff; a reloaded crew is a new entry, and forgotten definitions are collected.
const serialized = new WeakMap<CrewDef, CrewJson>();

export function crewJson(crew: CrewDef): CrewJson {
  let json = serialized.get(crew);
  if (!json) {
    const tasks = initialTasks(crew);
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

type NewExecution = {
  db: Db;
  crew: CrewDef;
  principal: Principal;
  // Inputs as given (a trigger's or schedule's too): validInputs keeps those the crew takes.
  request: Omit<KickoffRequest, "inputs"> & { inputs: Record<string, unknown> };
  /** The run this one starts again (lib/runs/rerun-execution.ts). */
  origin?: { id: string; kind: "rerun" | "fork" };
  /** A fork's tasks as it starts (some already completed) and the events that say so. */
  first?: {
    tasks: TaskState[];
    events: Omit<FirstEvent, "seq" | "created_at">[];
    /** A flow fork's progress: the path before the method it starts at, replayed. */
    flow?: FlowProgress;
  };
  /** A schedule or trigger that starts the run (in the principal's stead). */
  starter?: Starter;
  /** Whose runs its concurrency key reaches (null: the crew's), if not the principal's reach. */
  keyOwner?: string | null;
  /** The new run's id, when the caller needs it first (a concurrency key's stop reason). */
  id?: string;
  /** An A2A client's push notification endpoints, checked and sealed (lib/protocols/a2a/push.ts). */
  pushes?: ProtocolPush[];
};

/** Who the row says started a run: the signed-in person, or the token (its label, else prefix). */
function starterOf(principal: Principal): Starter {
  return {
    ownerUserId: ownerOf(principal),
    tokenId: principal.kind === "session" ? null : principal.tokenId,
    via: principal.kind === "session" ? "dashboard" : "api",
    name: principal.kind === "session" ? principal.email : null,
  };
}

/** Validates the inputs against the crew and queues an execution; a worker picks it up. */
export async function createExecution(args: NewExecution): Promise<string> {
  const { id, piece } = await preparedExecution(args, (key, json) =>
    storeDefinition(args.db, key, json),
  );
  const { db, request } = args;
  if (!request.concurrency) await commitTogether(db, piece);
  else {
    const by = args.starter?.name ?? principalName(args.principal);
    const owner = keyOwnerOf(args);
    const stopped = await withConcurrency(
      db,
      args.crew.slug,
      request.concurrency,
      { id, by, owner },
      (q) => writePiece(q, db, piece),
    );
    afterStops(stopped);
  }
  return id;
}

/** As createExecution, in the caller's transaction (which must lock any concurrency key first). */
export async function createExecutionIn(q: Queryable, args: NewExecution) {
  // In a transaction that may yet roll back: written with it, not remembered as written.
  const { id, piece } = await preparedExecution(args, async (key, json) => {
    await q.query(
      "INSERT INTO crew_definitions (key, definition) VALUES ($1, $2::jsonb) ON CONFLICT (key) DO NOTHING",
      [key, json],
    );
  });
  return { id, notify: await writePiece(q, args.db, piece) };
}

/** Whose runs a kickoff's concurrency key reaches: a person's token only its owner's. */
const keyOwnerOf = ({ keyOwner, principal }: NewExecution) =>
  keyOwner === undefined ? reachOf(principal) : keyOwner;

async function preparedExecution(
  args: NewExecution,
  store: (key: string, definition: string) => Promise<void>,
) {
  const {
    crew,
    principal,
    request,
    origin,
    first,
    starter,
    pushes,
    id = crypto.randomUUID(),
  } = args;
  await assertWebhookUrlsAllowed(request);
  assertIntegrationReady(crew);
  // Inputs the crew does not use are ignored, not stored.
  const inputs: Record<string, InputValue> = validInputs(crew, request.inputs);
  // A flow starts from its state (defaults, then inputs), checked against its schema.
  const flow = first?.flow
    ? first.flow
    : crew.flow
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
    ...(pushes?.length ? { a2a: pushes } : {}),
  };
  const { definition, key, tasks, totalTasks } = crewJson(crew);
  await store(key, definition); // written once per definition, not per run
  // A fork's first events follow the queued one, stamped now; their ledger entries are chained
  // here and written in the same statement as the run itself.
  const at = new Date().toISOString();
  const firstEvents: FirstEvent[] = (first?.events ?? []).map((e, i) => ({
    ...e,
    seq: i + 2,
    created_at: at,
  }));
  const by = starter ?? starterOf(principal);
  const piece = executionPiece({
    id,
    crew: crew.slug,
    starter: by,
    inputs: JSON.stringify(inputs),
    meta: request.meta ? JSON.stringify(request.meta) : null,
    webhooks: JSON.stringify(webhooks),
    definitionKey: key,
    tasks: first ? JSON.stringify(first.tasks) : tasks,
    queuedData: JSON.stringify({
      crew: crew.slug,
      inputs,
      total_tasks: totalTasks,
      ...(origin ? { origin: { execution_id: origin.id, kind: origin.kind } } : {}),
      ...(by.scheduleId ? { schedule_id: by.scheduleId } : {}),
      ...(by.triggerId ? { trigger_id: by.triggerId } : {}),
      ...(request.concurrency ? { concurrency: request.concurrency } : {}),
    }),
    flow: flow ? JSON.stringify(flow) : null,
    origin: origin ?? null,
    concurrencyKey: request.concurrency?.key ?? null,
    concurrencyOwner: request.concurrency ? keyOwnerOf(args) : null,
    firstEvents,
    ledger: firstEntries(id, firstEvents),
  });
  return { id, piece };
}
