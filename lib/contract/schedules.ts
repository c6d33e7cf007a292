import { z } from "zod";
import { KickoffInputValueSchema } from "./crew";
import { crewNamedFields, editedFields } from "./fields";

// Schedules: a crew run on a cron expression in a time zone (lib/schedules).
export const OVERLAP_POLICIES = ["skip", "queue", "allow"] as const;

const fields = {
  name: z
    .string({ error: "name is required" })
    .trim()
    .min(1, "name is required")
    .max(100, "name must be at most 100 characters")
    .describe("Shown on every run it starts"),
  cron: z
    .string({ error: "cron is required, e.g. 0 9 * * 1-5" })
    .trim()
    .min(1, "cron is required, e.g. 0 9 * * 1-5")
    .max(200)
    .describe("Five fields: minute hour day-of-month month day-of-week (croner's syntax)"),
  timezone: z
    .string({ error: "timezone is an IANA zone name, e.g. Europe/Berlin" })
    .trim()
    .min(1, "timezone is an IANA zone name, e.g. Europe/Berlin")
    .max(100)
    .describe("The IANA zone the expression is read in, e.g. Europe/Berlin or UTC"),
  inputs: z
    .record(z.string(), KickoffInputValueSchema, {
      error: "inputs must be an object mapping input names to values",
    })
    .describe("The inputs every run starts with"),
  overlap: z
    .enum(OVERLAP_POLICIES, { error: 'overlap is "skip", "queue" or "allow"' })
    .describe(
      "When the previous run is still going at a due time: skip this one, queue it after, or run both",
    ),
  catch_up: z.coerce
    .number({ error: "catch_up is a whole number from 1 to 100" })
    .int("catch_up is a whole number from 1 to 100")
    .min(1, "catch_up is a whole number from 1 to 100")
    .max(100, "catch_up is a whole number from 1 to 100")
    .describe("After downtime, how many of the missed due times still run (the latest ones)"),
  paused: z.boolean({ error: "paused is true or false" }),
};

export const ScheduleCreateSchema = z
  .object({
    ...fields,
    inputs: fields.inputs.default({}),
    overlap: fields.overlap.default("skip"),
    catch_up: fields.catch_up.default(1),
    paused: fields.paused.default(false),
  })
  .meta({ id: "ScheduleCreate" });

export const SchedulePatchSchema = z
  .object({
    name: fields.name,
    cron: fields.cron,
    timezone: fields.timezone,
    inputs: fields.inputs,
    overlap: fields.overlap,
    catch_up: fields.catch_up,
    paused: fields.paused,
  })
  .partial()
  .meta({ id: "SchedulePatch" });

export type ScheduleCreate = z.infer<typeof ScheduleCreateSchema>;
export type SchedulePatch = z.infer<typeof SchedulePatchSchema>;

export const ScheduleFireSchema = z
  .object({
    due_at: z.string(),
    fired_at: z.string(),
    outcome: z.enum(["started", "queued", "skipped", "missed", "failed"]),
    execution_id: z.string().nullable(),
    detail: z.string().nullable(),
  })
  .meta({ id: "ScheduleFire" });

export const ScheduleSchema = z
  .object({
    ...crewNamedFields,
    cron: z.string(),
    timezone: z.string(),
    inputs: z.record(z.string(), z.unknown()),
    overlap: z.enum(OVERLAP_POLICIES),
    catch_up: z.number().int(),
    paused: z.boolean(),
    next_fire_times: z
      .array(z.string())
      .describe("The next five due times (ISO 8601, UTC); none while paused"),
    last_fire: ScheduleFireSchema.nullable(),
    ...editedFields,
  })
  .meta({ id: "Schedule" });

export type Schedule = z.infer<typeof ScheduleSchema>;
export type ScheduleFire = z.infer<typeof ScheduleFireSchema>;

export const SchedulesResponseSchema = z
  .object({ schedules: z.array(ScheduleSchema) })
  .meta({ id: "Schedules" });

export const ScheduleFiresResponseSchema = z
  .object({ fires: z.array(ScheduleFireSchema) })
  .meta({ id: "ScheduleFires" });
