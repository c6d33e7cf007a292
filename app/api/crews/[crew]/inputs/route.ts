// GET /inputs — the names of the inputs the crew requires.
import { crewRoute } from "@/lib/http/crew-route";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = crewRoute(async ({ crew }) => json({ inputs: crew.inputs }));
