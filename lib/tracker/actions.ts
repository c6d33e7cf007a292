import { z } from "zod";
import { env } from "@/lib/config/env";
import type { Db } from "@/lib/db/types";
import {
  type ActionContext,
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
import { LinearTracker } from "./linear/adapter";
import { ACTION_DESCRIPTIONS, ACTION_NAMES, ACTION_SCHEMAS, type ActionName } from "./schemas";
import { trackerBackend } from "./settings";

export type { ActionContext };

// Apps an agent may list: `tracker` (or CrewAI's `linear`) for every action, `tracker/<action>` for one.
export const APP_NAMES = ["tracker", "linear"] as const;

const HANDLERS: {
  [A in ActionName]: (
    db: Db,
    params: z.infer<(typeof ACTION_SCHEMAS)[A]>,
    ctx: ActionContext,
  ) => Promise<unknown>;
} = {
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

let linear: { key: string; tracker: LinearTracker } | undefined;

/** The Linear client when Linear is the chosen backend; undefined means the embedded tracker. */
export async function linearTracker(db: Db): Promise<LinearTracker | undefined> {
  const choice = await trackerBackend(db);
  if (choice.backend !== "linear") return undefined;
  if (linear?.key !== choice.apiKey) {
    linear = {
      key: choice.apiKey,
      tracker: new LinearTracker({ apiKey: choice.apiKey, apiUrl: env().LINEAR_API_URL }),
    };
  }
  return linear.tracker;
}

export function isActionName(name: string): name is ActionName {
  return (ACTION_NAMES as string[]).includes(name);
}

/** The actions a list of `apps` grants, or an error naming the app or action that does not exist. */
export function grantedActions(apps: string[]): { actions: ActionName[]; error?: string } {
  const granted = new Set<ActionName>();
  for (const app of apps) {
    const [name, action, ...rest] = app.split("/");
    if (!name || !(APP_NAMES as readonly string[]).includes(name) || rest.length) {
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
    }) as Record<string, unknown>;
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
    throw new TrackerError(
      "validation_error",
      `${field}: ${issue?.message}. ${ACTION_DESCRIPTIONS[name]}`,
    );
  }
  const remote = await linearTracker(db);
  if (remote) return remote.run(name, parsed.data);
  const handler = HANDLERS[name] as (db: Db, p: unknown, ctx: ActionContext) => Promise<unknown>;
  return handler(db, parsed.data, ctx);
}
