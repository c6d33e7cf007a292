// GET /inputs — the names of the inputs the crew requires.

import { json } from "@/lib/http/respond";
import { crewRoute, otherMethods } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

export const GET = crewRoute(async ({ crew }) => json({ inputs: crew.inputs }));

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
