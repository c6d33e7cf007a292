import { z } from "zod";
import { EXECUTION_STATUSES } from "@/lib/run-model/states";

// The runs list's query string: its filters, the page size and the cursor.

export const ListQuerySchema = z.object({
  crew: z.string().max(200).optional(),
  status: z.enum(EXECUTION_STATUSES).optional(),
  deployment: z
    .string()
    .max(100)
    .optional()
    .describe("`local` for this Crewdeck's own crews, or a remote deployment's slug"),
  person: z
    .string()
    .max(320)
    .optional()
    .describe("Email of the person (or token's user) who started it"),
  from: z.iso.date("from must be a date (YYYY-MM-DD)").optional(),
  to: z.iso.date("to must be a date (YYYY-MM-DD)").optional(),
  q: z
    .string()
    .trim()
    .max(200)
    .optional()
    .describe(
      "A kickoff id (or its start), a crew, or text in the first 4 KB of the inputs (as JSON) or of the error",
    ),
  meta: z
    .union([z.string().max(500), z.array(z.string().max(500)).max(20)])
    .optional()
    .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]))
    .pipe(
      z.array(
        z
          .string()
          .regex(/^[^:]+:/, "meta filters are key:value (e.g. meta=team:growth)")
          .transform((f) => {
            const i = f.indexOf(":");
            return { key: f.slice(0, i), value: f.slice(i + 1) };
          }),
      ),
    )
    .describe("key:value; repeat for several (all must match)"),
  started_by: z
    .string()
    .trim()
    .max(320)
    .optional()
    .describe("`me` (the caller) or the e-mail of the person who started it"),
  cursor: z
    .string()
    .max(300)
    .optional()
    .describe("next_cursor or prev_cursor of a previous page; omit for the newest runs"),
  per_page: z.coerce.number().int().min(1).max(100).default(25),
});
export type ListQuery = z.infer<typeof ListQuerySchema>;
