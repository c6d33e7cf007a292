import { z } from "zod";
import { env } from "@/lib/config/env";
import { TrackerError } from "./errors";

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

export function optionalUuid(field: string, value: string | undefined) {
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

export function priority(value: string | number | undefined): number | undefined {
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
export function isoDate(field: string, value: string | undefined): string | undefined {
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
export function onlyKnownFields(fields: Record<string, unknown> | undefined, known: string[]) {
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

export function nonEmpty(field: string, value: string) {
  if (!value.trim()) throw new TrackerError("validation_error", `${field} must not be empty.`);
  return value.trim();
}
