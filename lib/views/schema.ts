import { z } from "zod";

// Saved views: a person's named filters of the runs list. Pure zod: the dashboard's client and
// the routes share these; their ids name them in the OpenAPI document.
export const VIEW_NAME_MAX = 60;
export const VIEW_QUERY_MAX = 2000;
export const VIEWS_PER_PERSON_MAX = 100;

export const SavedViewSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    query: z.string().describe("The runs list's URL query string, without the leading '?'"),
    created_at: z.string().describe("When it was saved (ISO 8601); saving again updates it"),
  })
  .meta({ id: "SavedView" });

export const SavedViewsResponseSchema = z
  .object({
    views: z.array(SavedViewSchema).describe("The caller's own views, by name"),
  })
  .meta({ id: "SavedViews" });

export const SavedViewInputSchema = z
  .object({
    name: z
      .string({ error: "name must be a string" })
      .trim()
      .min(1, "name must not be empty")
      .max(VIEW_NAME_MAX, `name must be at most ${VIEW_NAME_MAX} characters`),
    query: z
      .string({ error: "query must be a string" })
      .max(VIEW_QUERY_MAX, `query must be at most ${VIEW_QUERY_MAX} characters`)
      .transform((q) => q.replace(/^\?/, "")),
  })
  .meta({ id: "SavedViewInput" });

export type SavedView = z.infer<typeof SavedViewSchema>;
export type SavedViewInput = z.infer<typeof SavedViewInputSchema>;
