import { SavedViewSchema, SavedViewsResponseSchema } from "@/lib/api/schemas";
import type { SavedViewInput } from "@/lib/views/schema";
import { NoContent, request } from "./request";

// The signed-in person's saved views of the runs list (`query` is the list's URL query string).
export const viewsApi = {
  list: () => request(SavedViewsResponseSchema, "GET", "/api/views"),
  create: (view: SavedViewInput) => request(SavedViewSchema, "POST", "/api/views", view),
  remove: (id: string) => request(NoContent, "DELETE", `/api/views/${encodeURIComponent(id)}`),
};
