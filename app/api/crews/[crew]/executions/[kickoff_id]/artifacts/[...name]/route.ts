// GET /executions/{id}/artifacts/{name} — download one of the run's files, as an attachment.

import * as crewApi from "@/lib/api/endpoints/crew";
import { crewRoute, otherMethods } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { errors } from "@/lib/errors";
import { nameProblem } from "@/lib/outputs/output-file";
import { getArtifact } from "@/lib/runs/artifacts";
import { getExecutionOrThrow } from "@/lib/runs/get-execution";

export const dynamic = "force-dynamic";

export const GET = crewRoute(crewApi.artifact, async ({ principal, crew, params }) => {
  const db = await getDb();
  // Who may see the run may download its files; anyone else learns nothing (404).
  const run = await getExecutionOrThrow({ db, crew: crew.slug, id: params.kickoff_id, principal });
  // Next has decoded each segment already (the builder joins them): decoding again turned
  // `%25` into a 500.
  const name = params.name;
  // No stored name breaks the rules, so one that does is simply not there.
  const file = nameProblem(name) ? null : await getArtifact({ q: db, id: run.id, name });
  if (!file) throw errors.notFound(`No file '${name}' in execution '${params.kickoff_id}'.`);
  const base = name.split("/").at(-1) ?? name;
  return new Response(file.body, {
    headers: {
      "content-type": file.content_type,
      "content-disposition": `attachment; filename="${base}"; filename*=UTF-8''${encodeURIComponent(base)}`,
      "cache-control": "private, no-store",
      // An agent wrote it: never sniffed into something else, never run in our origin.
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
    },
  });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
