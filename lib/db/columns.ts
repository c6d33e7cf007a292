import { z } from "zod";

// Column types for row schemas, as both engines return them. node-postgres returns BIGINT,
// NUMERIC, COUNT(*) and SUM as strings where PGlite returns numbers for BIGINT, COUNT and SUM, so
// queries cast those to int; both return int4 and float8 as numbers, timestamptz and date as
// Date, json(b) as parsed JSON.

/** int4/float8: a number on both engines. */
export const num = z.number();
/** timestamptz, date. */
export const time = z.date();

/**
 * A json(b) column written by this service as a `T` (through its own zod schemas on the way
 * in): checked to be JSON of the right kind, not re-parsed in depth on every read (a run's tasks
 * and crew are large and read on every status poll).
 */
export const jsonObject = <T extends object>() =>
  z.custom<T>((v) => typeof v === "object" && v !== null && !Array.isArray(v));
export const jsonArray = <T>() => z.custom<T[]>((v) => Array.isArray(v));
/** A json(b) column read as whatever JSON it holds; the reader checks it. */
export const json = z.unknown();

/** The commonest row read back: `RETURNING id`, `SELECT id`. */
export const IdRow = z.object({ id: z.string() });
/** `SELECT count(*)::int AS n` (int4: a number on both engines). */
export const CountRow = z.object({ n: num });
