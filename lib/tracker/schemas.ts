import { z } from "zod";
import { FilterFormulaSchema } from "./filter";

// The 13 actions' parameters, exactly as the integration document names them. Each schema is
// also the JSON Schema the agent (and the HTTP transport) sees.
const id = (what: string) => z.string().describe(`${what} ID (a UUID)`);
const priority = z
  .union([z.string(), z.number()])
  .describe("Priority: a string holding an integer, 0 (none) to 4 (low); 1 is urgent");
const dueDate = z.string().describe("Due date, ISO 8601 (YYYY-MM-DD)");

// Text someone reads later, written by integration tokens and agents' tools: a description is
// Markdown a page renders (64 KB is far past any issue a person writes); titles and names show in
// every list. Past a cap the action is a 422 naming the field.
export const TRACKER_DESCRIPTION_CHARS = 65_536;
const TRACKER_TITLE_CHARS = 1_000;
const capped = (max: number) =>
  z
    .string()
    .max(max, { error: (i) => `at most ${max} characters (it has ${String(i.input).length})` });
const title = capped(TRACKER_TITLE_CHARS);
const description = capped(TRACKER_DESCRIPTION_CHARS);

const issueAdditional = z
  .record(z.string(), z.unknown())
  .describe("assigneeId (user ID) and labelIds (array of label IDs)")
  .optional();

export const ACTION_SCHEMAS = {
  create_issue: z.object({
    teamId: id("Team"),
    title: title.describe("Issue title"),
    description: description.optional().describe("Markdown description"),
    statusId: id("Workflow state (of the issue's team)").optional(),
    priority: priority.optional(),
    dueDate: dueDate.optional(),
    cycleId: id("Cycle").optional(),
    additionalFields: issueAdditional,
  }),
  update_issue: z.object({
    issueId: id("Issue"),
    title: title.optional(),
    description: description.optional(),
    statusId: id("Workflow state").optional(),
    priority: priority.optional(),
    dueDate: dueDate.optional(),
    cycleId: id("Cycle").optional(),
    additionalFields: issueAdditional,
  }),
  get_issue_by_id: z.object({ issueId: id("Issue") }),
  get_issue_by_issue_identifier: z.object({
    externalId: z.string().describe("The issue's identifier, <TEAMKEY>-<number>, e.g. ENG-42"),
  }),
  search_issue: z.object({
    queryTerm: z
      .string()
      .describe("Text to find in titles and descriptions, at most 200 characters"),
    issueFilterFormula: FilterFormulaSchema.optional().describe(
      "Optional filter on title, number, project, createdAt",
    ),
  }),
  delete_issue: z.object({ issueId: id("Issue") }),
  archive_issue: z.object({ issueId: id("Issue") }),
  create_sub_issue: z.object({
    parentId: id("Parent issue"),
    teamId: id("Team"),
    title,
    description: description.optional(),
    additionalFields: z.record(z.string(), z.unknown()).describe("lead (user ID)").optional(),
  }),
  create_project: z.object({
    teamIds: z
      .union([z.string(), z.array(z.string())])
      .describe("One team ID, or an array (or a JSON array string) of team IDs"),
    projectName: title,
    description: description.optional(),
    additionalFields: z
      .record(z.string(), z.unknown())
      .describe("state (backlog, planned, started, paused, completed, canceled), description")
      .optional(),
  }),
  update_project: z.object({
    projectId: id("Project"),
    projectName: title.optional(),
    description: description.optional(),
    additionalFields: z.record(z.string(), z.unknown()).describe("state, description").optional(),
  }),
  get_project_by_id: z.object({ projectId: id("Project") }),
  delete_project: z.object({ projectId: id("Project") }),
  search_teams: z.object({
    teamFilterFormula: FilterFormulaSchema.optional().describe("Optional filter on id, name"),
  }),
} as const;

export type ActionName = keyof typeof ACTION_SCHEMAS;
const isActionKey = (key: string): key is ActionName => Object.hasOwn(ACTION_SCHEMAS, key);
export const ACTION_NAMES = Object.keys(ACTION_SCHEMAS).filter(isActionKey);
export type ActionParams<A extends ActionName> = z.infer<(typeof ACTION_SCHEMAS)[A]>;

export const ACTION_DESCRIPTIONS: Record<ActionName, string> = {
  create_issue: "Create an issue in a team. Find team IDs with search_teams.",
  update_issue:
    "Change an issue's title, description, status, priority, due date, cycle, assignee or labels.",
  get_issue_by_id: "Get one issue by its ID.",
  get_issue_by_issue_identifier: "Get one issue by its identifier, such as ENG-42.",
  search_issue: "Search issues by text in title and description, optionally filtered.",
  delete_issue: "Delete an issue (it disappears from search and get).",
  archive_issue: "Archive an issue (still readable, takes no sub-issues).",
  create_sub_issue: "Create a sub-issue under a parent issue of the same team.",
  create_project: "Create a project for one or more teams.",
  update_project: "Change a project's name, description or state.",
  get_project_by_id: "Get one project by its ID.",
  delete_project: "Delete a project.",
  search_teams: "List teams, optionally filtered by id or name. Use it to find team IDs.",
};
