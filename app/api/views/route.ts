// GET /api/views — the caller's saved views of the runs list; POST saves one (same name: replaces).
import type { z } from "zod";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { apiRoute, type NoParams } from "@/lib/http/routes";
import { viewOwnerOf } from "@/lib/views/owner";
import {
  type SavedView,
  type SavedViewInput,
  SavedViewInputSchema,
  SavedViewSchema,
  SavedViewsResponseSchema,
} from "@/lib/views/schema";
import { listViews, saveView } from "@/lib/views/store";

export const dynamic = "force-dynamic";

export const GET = apiRoute(
  async ({ principal }) => {
    const body: z.infer<typeof SavedViewsResponseSchema> = {
      views: await listViews({ db: await getDb(), userId: viewOwnerOf(principal) }),
    };
    return json(body);
  },
  { response: SavedViewsResponseSchema },
);

// 201 with the new view; 200 when it replaced the caller's view of the same name.
export const POST = apiRoute<NoParams, SavedViewInput>(
  async ({ principal, body }) => {
    const db = await getDb();
    const saved = await saveView({ db, userId: viewOwnerOf(principal), input: body });
    const view: SavedView = saved.view;
    return json(view, { status: saved.created ? 201 : 200 });
  },
  { action: "self", body: SavedViewInputSchema, bodyLimit: 16 * 1024, response: SavedViewSchema },
);
