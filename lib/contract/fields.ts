import { z } from "zod";

// Fields that several resources of the contract carry alike, spread into their schemas.

/** What a crew keeps by name: datasets, variants, experiments, schedules, triggers. */
export const crewNamedFields = { id: z.uuid(), crew: z.string(), name: z.string() };

/** Who made it, and when. */
export const madeFields = { created_by: z.string(), created_at: z.string() };

/** Who made it, when, and when it last changed. */
export const editedFields = { ...madeFields, updated_at: z.string() };

/** A token's life: minted, last used, revoked. */
export const tokenLifeFields = {
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
};
