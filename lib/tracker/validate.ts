import { z } from "zod";
import { env } from "@/lib/config/env";
import { TrackerError } from "./errors";
import { TRACKER_DESCRIPTION_CHARS } from "./schemas";

// Field checks shared by the actions; each failure names the field and what would be right.
export function uuid(field: string, value: string): string {
  if (!z.uuid().safeParse(value).success) {
    throw new TrackerError(
      "invalid_id",
      `${field} '${value}' is not a UUID; IDs look like 3f2b6c1e-…, and search_teams / search_issue return them.`,
    );
  }
  return value.toLowerCase();
}

function optionalUuid(field: string, value: string | undefined) {
  return value === undefined ? undefined : uuid(field, value);
}

const IDENTIFIER = /^([A-Z][A-Z0-9]{0,9})-([1-9][0-9]{0,8})$/;
export function identifier(value: string) {
  const m = IDENTIFIER.exec(value.trim().toUpperCase());
  if (!m?.[1] || !m[2]) {
    throw new TrackerError(
      "invalid_identifier",
      `externalId '${value}' is not an issue identifier; use <TEAMKEY>-<number>, e.g. ENG-42.`,
    );
  }
  return { key: m[1], number: Number(m[2]) };
}

function priority(value: string | number | undefined): number | undefined {
  if (value === undefined) return undefined;
  const max = env().TRACKER_PRIORITY_MAX;
  const n =
    typeof value === "number" ? value : /^\s*-?\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < 0 || n > max) {
    throw new TrackerError(
      "invalid_priority",
      `priority '${value}' is out of range; use a whole number from 0 (no priority) to ${max}, as a string such as "2".`,
    );
  }
  return n;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
function isoDate(field: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const d = new Date(value);
  if (
    !ISO_DATE.test(value) ||
    Number.isNaN(d.getTime()) ||
    d.toISOString().slice(0, 10) !== value.slice(0, 10)
  ) {
    throw new TrackerError(
      "invalid_date",
      `${field} '${value}' is not an ISO 8601 date; use YYYY-MM-DD, e.g. 2026-12-31.`,
    );
  }
  return value.slice(0, 10);
}

/** additionalFields may hold only the keys this action knows; anything else is a custom field that does not exist. */
function onlyKnownFields(fields: Record<string, unknown> | undefined, known: string[]) {
  for (const key of Object.keys(fields ?? {})) {
    if (!known.includes(key)) {
      throw new TrackerError(
        "unknown_field",
        `additionalFields.${key} does not exist here; the known fields are: ${known.join(", ")}.`,
      );
    }
  }
  return fields ?? {};
}

/** A search's term costs its length times the text searched: at most 200 characters. */
const SEARCH_TERM_CHARS = 200;

/** The term trimmed (it may be empty: callers say what that means), or a 422 naming `field`. */
export function searchTerm(field: string, value: string) {
  const term = value.trim();
  if (term.length > SEARCH_TERM_CHARS)
    throw new TrackerError(
      "validation_error",
      `${field}: at most ${SEARCH_TERM_CHARS} characters (it has ${term.length}); look for a shorter phrase.`,
      422,
    );
  return term;
}

/** search_issue's `queryTerm`: a term within the bound, and not blank. */
export function issueQueryTerm(value: string) {
  const term = searchTerm("queryTerm", value);
  if (!term)
    throw new TrackerError(
      "empty_query",
      "queryTerm must not be empty; give a word to look for in titles and descriptions.",
    );
  return term;
}

export function nonEmpty(field: string, value: string) {
  if (!value.trim()) throw new TrackerError("validation_error", `${field} must not be empty.`);
  return value.trim();
}

type IssueFieldInput = {
  statusId?: string;
  cycleId?: string;
  priority?: string | number;
  dueDate?: string;
  additionalFields?: Record<string, unknown>;
};

/** The optional fields create_issue and update_issue share, checked for form before any I/O. */
export function parseIssueFields(p: IssueFieldInput) {
  const extra = onlyKnownFields(p.additionalFields, ["assigneeId", "labelIds"]);
  return {
    statusId: optionalUuid("statusId", p.statusId),
    cycleId: optionalUuid("cycleId", p.cycleId),
    priority: priority(p.priority),
    dueDate: isoDate("dueDate", p.dueDate),
    assigneeId:
      extra.assigneeId === undefined
        ? undefined
        : uuid("additionalFields.assigneeId", String(extra.assigneeId)),
    labelIds: extra.labelIds,
  };
}

const PROJECT_STATES = ["backlog", "planned", "started", "paused", "completed", "canceled"];

function projectState(value: unknown) {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || !PROJECT_STATES.includes(value)) {
    throw new TrackerError(
      "invalid_state",
      `additionalFields.state '${String(value)}' is not a project state; use one of: ${PROJECT_STATES.join(", ")}.`,
    );
  }
  return value;
}

// "One team ID string or JSON array of team ID strings": accept all three spellings.
export function teamIdList(raw: string | string[]): string[] {
  let list: unknown = raw;
  if (typeof raw === "string" && raw.trim().startsWith("[")) {
    try {
      list = JSON.parse(raw);
    } catch {
      throw new TrackerError(
        "validation_error",
        "teamIds looks like a JSON array but does not parse; send an array of team IDs.",
      );
    }
  }
  const ids = Array.isArray(list) ? list : [list];
  if (!ids.length || !ids.every((x): x is string => typeof x === "string"))
    throw new TrackerError("validation_error", "teamIds needs at least one team ID.");
  return ids.map((t, i) => uuid(`teamIds[${i}]`, t));
}

/** Keeps only the keys whose value is defined (for update inputs sent as partial objects). */
export function compact<T extends Record<string, unknown>>(input: T): Partial<T> {
  const out: Partial<T> = { ...input };
  for (const key in out) if (out[key] === undefined) delete out[key];
  return out;
}

/** create_project / update_project: name, description (parameter or additionalFields) and state. */
export function parseProjectFields(p: {
  projectName?: string;
  description?: string;
  additionalFields?: Record<string, unknown>;
}) {
  const extra = onlyKnownFields(p.additionalFields, ["state", "description"]);
  const extraDescription = typeof extra.description === "string" ? extra.description : undefined;
  if (extraDescription !== undefined && extraDescription.length > TRACKER_DESCRIPTION_CHARS)
    throw new TrackerError(
      "validation_error",
      `additionalFields.description: at most ${TRACKER_DESCRIPTION_CHARS} characters (it has ${extraDescription.length}).`,
      422,
    );
  return {
    name: p.projectName === undefined ? undefined : nonEmpty("projectName", p.projectName),
    description: p.description ?? extraDescription,
    state: projectState(extra.state),
  };
}

/** create_sub_issue: the additionalFields.lead it may carry. */
export function parseLead(additionalFields: Record<string, unknown> | undefined) {
  const extra = onlyKnownFields(additionalFields, ["lead"]);
  return extra.lead === undefined ? undefined : uuid("additionalFields.lead", String(extra.lead));
}

/** A sub-issue's parent must exist, be neither deleted nor archived, and be in the same team. */
export function assertUsableParent(
  parent: { identifier: string; teamId: string; deleted: boolean; archived: boolean } | undefined,
  { parentId, teamId }: { parentId: string; teamId: string },
) {
  if (!parent)
    throw new TrackerError("invalid_parent", `The parent issue ${parentId} does not exist.`);
  if (parent.deleted)
    throw new TrackerError("invalid_parent", `The parent issue ${parent.identifier} was deleted.`);
  if (parent.archived)
    throw new TrackerError(
      "invalid_parent",
      `The parent issue ${parent.identifier} is archived and takes no sub-issues.`,
    );
  if (parent.teamId !== teamId) {
    throw new TrackerError(
      "invalid_parent",
      `The parent issue ${parent.identifier} belongs to another team; create the sub-issue in team ${parent.teamId}.`,
    );
  }
}
