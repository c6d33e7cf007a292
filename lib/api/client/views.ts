import type { SavedViewInput } from "@/lib/views/schema";
import { request, schema } from "./request";

// The signed-in person's saved views of the runs list (`query` is the list's URL query string).
export const viewsApi = {
  list: () => request(schema("SavedViewsResponseSchema"), "GET", "/api/views"),
  create: (view: SavedViewInput) => request(schema("SavedViewSchema"), "POST", "/api/views", view),
  remove: (id: string) =>
    request(schema("NoContentSchema"), "DELETE", `/api/views/${encodeURIComponent(id)}`),
};
