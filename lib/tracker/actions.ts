import { z } from "zod";
import { env } from "@/lib/config/env";
import type { Db } from "@/lib/db/types";
import { isOneOf } from "@/lib/util/one-of";
import type { ActionContext } from "./embedded/history";
import {
  archiveIssue,
  createIssue,
  createSubIssue,
  deleteIssue,
  getIssueById,
  getIssueByIdentifier,
  searchIssues,
  updateIssue,
} from "./embedded/issues";
import {
  createProject,
  deleteProject,
  getProject,
  searchTeams,
  updateProject,
} from "./embedded/projects";
import { TrackerError } from "./errors";
import { READ_ACTIONS } from "./integration-token";
import { LinearTracker } from "./linear/adapter";
import { LinearAuthenticationError } from "./linear/graphql";
import { markRevoked } from "./linear/oauth";
import {
  ACTION_DESCRIPTIONS,
  ACTION_NAMES,
  ACTION_SCHEMAS,
  type ActionName,
  type ActionParams,
} from "./schemas";
import { trackerBackend } from "./settings";

export type { ActionContext };

// Apps an agent may list: `tracker` (or CrewAI's `linear`) for every action, `tracker/<action>` for one.
export const APP_NAMES = ["tracker", "linear"] as const;

type Handlers = {
  [A in ActionName]: (
    db: Db,
    params: z.infer<(typeof ACTION_SCHEMAS)[A]>,
    ctx: ActionContext,
  ) => Promise<unknown>;
};

const HANDLERS: Handlers = {
  create_issue: createIssue,
  update_issue: updateIssue,
  get_issue_by_id: getIssueById,
  get_issue_by_issue_identifier: getIssueByIdentifier,
  search_issue: searchIssues,
  delete_issue: deleteIssue,
  archive_issue: archiveIssue,
  create_sub_issue: createSubIssue,
  create_project: createProject,
  update_project: updateProject,
  get_project_by_id: getProject,
  delete_project: deleteProject,
  search_teams: searchTeams,
};

/** One action on the embedded tracker, its parameters parsed by the action's schema. */
function runEmbedded<A extends ActionName>(
  db: Db,
  name: A,
  params: z.infer<(typeof ACTION_SCHEMAS)[A]>,
  ctx: ActionContext,
): Promise<unknown> {
  const handler: Handlers[A] = HANDLERS[name];
  return handler(db, params, ctx);
}

let linear: { key: string; tracker: LinearTracker } | undefined;

/** The Linear client when Linear is the chosen backend; undefined means the embedded tracker. */
async function linearTracker(
  db: Db,
): Promise<{ tracker: LinearTracker; oauthScopes?: string[] } | undefined> {
  const choice = await trackerBackend(db);
  if (choice.backend !== "linear") return undefined;
  const key = "accessToken" in choice ? choice.accessToken : choice.apiKey;
  if (linear?.key !== key) {
    linear = {
      key,
      tracker: new LinearTracker({
        ...("accessToken" in choice ? { accessToken: key } : { apiKey: key }),
        apiUrl: env().LINEAR_API_URL,
      }),
    };
  }
  return { tracker: linear.tracker, oauthScopes: "scopes" in choice ? choice.scopes : undefined };
}

/**
 * Through an OAuth connection, an action needs its scope: the seed's "OAuth connection lacks
 * scopes" names the one missing. A token Linear no longer accepts marks the connection revoked.
 */
async function runOnLinear<A extends ActionName>(
  db: Db,
  linearBackend: { tracker: LinearTracker; oauthScopes?: string[] },
  name: A,
  params: ActionParams<A>,
) {
  const { tracker, oauthScopes } = linearBackend;
  if (oauthScopes) {
    const needed = READ_ACTIONS.has(name) ? "read" : "write";
    const has = (scope: string) =>
      oauthScopes.includes(scope) || (scope === "read" && oauthScopes.includes("write"));
    if (!has(needed))
      throw new TrackerError(
        "permission_denied",
        `The Linear OAuth connection lacks the scope '${needed}' (it has: ${oauthScopes.join(", ") || "none"}); reconnect Linear in Settings granting it.`,
      );
  }
  try {
    return await tracker.run(name, params);
  } catch (err) {
    if (oauthScopes && err instanceof LinearAuthenticationError) {
      await markRevoked(db);
      throw new TrackerError(
        "permission_denied",
        "Linear no longer accepts this connection's token (revoked or expired): an administrator must reconnect Linear in Settings.",
      );
    }
    throw err;
  }
}

function isActionName(name: string): name is ActionName {
  return isOneOf(ACTION_NAMES, name);
}

/** The actions a list of `apps` grants, or an error naming the app or action that does not exist. */
export function grantedActions(apps: string[]): { actions: ActionName[]; error?: string } {
  const granted = new Set<ActionName>();
  for (const app of apps) {
    const [name, action, ...rest] = app.split("/");
    if (!name || !isOneOf(APP_NAMES, name) || rest.length) {
      return {
        actions: [],
        error: `unknown app '${app}': use 'tracker' (or 'linear'), or 'tracker/<action>'`,
      };
    }
    if (action === undefined) for (const a of ACTION_NAMES) granted.add(a);
    else if (isActionName(action)) granted.add(action);
    else
      return {
        actions: [],
        error: `unknown action '${action}' in '${app}'; actions: ${ACTION_NAMES.join(", ")}`,
      };
  }
  return { actions: [...granted] };
}

/** The action list as the HTTP transport and the agent's tools describe it. */
export function describeActions(names: ActionName[] = ACTION_NAMES) {
  return names.map((name) => {
    const { $schema: _s, ...parameters } = z.toJSONSchema(ACTION_SCHEMAS[name], {
      io: "input",
    });
    return { name, description: ACTION_DESCRIPTIONS[name], parameters };
  });
}

/** Validates the parameters and runs one action; every failure is a TrackerError. */
export async function executeAction(
  db: Db,
  name: string,
  raw: unknown,
  ctx: ActionContext = {},
): Promise<unknown> {
  if (!isActionName(name))
    throw new TrackerError(
      "unknown_action",
      `No action '${name}'; actions: ${ACTION_NAMES.join(", ")}.`,
    );
  const parsed = ACTION_SCHEMAS[name].safeParse(raw ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join(".") || "parameters";
    if (/FilterFormula/.test(String(issue?.path[0]))) {
      throw new TrackerError(
        "invalid_filter",
        `${field}: ${issue?.message}. A filter is OR of AND groups: {"operator":"OR","conditions":[{"operator":"AND","conditions":[{"field":"title","operator":"$stringContains","value":"bug"}]}]}.`,
      );
    }
    // Well-formed but past a length cap: semantically invalid, so 422 (form errors stay 400).
    throw new TrackerError(
      "validation_error",
      `${field}: ${issue?.message}. ${ACTION_DESCRIPTIONS[name]}`,
      issue?.code === "too_big" ? 422 : undefined,
    );
  }
  const remote = await linearTracker(db);
  if (remote) return runOnLinear(db, remote, name, parsed.data);
  return runEmbedded(db, name, parsed.data, ctx);
}
