import { z } from "zod";
import { artifactUrl } from "@/lib/contract/artifact-url";
import type { Artifact } from "@/lib/contract/status";
import { num, time } from "@/lib/db/columns";
import type { Queryable } from "@/lib/db/types";

const ArtifactRow = z.object({
  name: z.string(),
  task_id: z.string(),
  content_type: z.string(),
  bytes: num,
  created_at: time,
});

/** A run's files (task outputs with output_file), by name. The caller has checked access. */
export async function listArtifacts({
  q,
  crew,
  id,
}: {
  q: Queryable;
  crew: string;
  id: string;
}): Promise<Artifact[]> {
  const { rows } = await q.query(
    `SELECT name, task_id, content_type, bytes, created_at FROM execution_artifacts
      WHERE execution_id = $1 ORDER BY name`,
    [id],
    ArtifactRow,
  );
  return rows.map((r) => ({
    ...r,
    created_at: new Date(r.created_at).toISOString(),
    download_url: artifactUrl(crew, id, r.name),
  }));
}

/** One file with its body, or null. The caller has checked access. */
export async function getArtifact({ q, id, name }: { q: Queryable; id: string; name: string }) {
  const { rows } = await q.query(
    `SELECT name, task_id, content_type, bytes, created_at, body FROM execution_artifacts
      WHERE execution_id = $1 AND name = $2`,
    [id, name],
    ArtifactRow.extend({ body: z.string() }),
  );
  return rows[0] ?? null;
}
