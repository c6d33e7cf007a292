// GET /api/views — the caller's saved views of the runs list; POST saves one (same name: replaces).
import type { z } from "zod";
import * as runsApi from "@/lib/api/endpoints/runs";
import { apiRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { viewOwnerOf } from "@/lib/views/owner";
import type { SavedView, SavedViewsResponseSchema } from "@/lib/views/schema";
import { listViews, saveView } from "@/lib/views/store";

export const dynamic = "force-dynamic";

export const GET = apiRoute(runsApi.listViews, async ({ principal }) => {
  const body: z.infer<typeof SavedViewsResponseSchema> = {
    views: await listViews({ db: await getDb(), userId: viewOwnerOf(principal) }),
  };
  return json(body);
});

// 201 with the new view; 200 when it replaced the caller's view of the same name.
export const POST = apiRoute(runsApi.saveView, async ({ principal, body }) => {
  const db = await getDb();
  const saved = await saveView({ db, userId: viewOwnerOf(principal), input: body });
  const view: SavedView = saved.view;
  return json(view, { status: saved.created ? 201 : 200 });
});
