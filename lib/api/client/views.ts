import type { SavedViewInput } from "@/lib/views/schema";
import { contract, noContent, request } from "./request";

const viewSchemas = contract(() => import("@/lib/views/schema"));

// The signed-in person's saved views of the runs list (`query` is the list's URL query string).
export const viewsApi = {
  list: () => request(viewSchemas("SavedViewsResponseSchema"), "GET", "/api/views"),
  create: (view: SavedViewInput) =>
    request(viewSchemas("SavedViewSchema"), "POST", "/api/views", view),
  remove: (id: string) => request(noContent, "DELETE", `/api/views/${encodeURIComponent(id)}`),
};
