import { constants } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { env } from "@/lib/config/env";
import { num } from "@/lib/db/columns";
import type { Db } from "@/lib/db/types";
import { errorCode } from "@/lib/errors";
import { ARTIFACT_MAX_BYTES, contentTypeFor, nameProblem } from "@/lib/outputs/output-file";

// Each run's files, for read_file / write_file / list_directory: a folder on disk under
// DATA_DIR/workspaces/<execution id>/, mirrored into the run's artifacts as `workspace/<path>`.
// The artifact is the copy that counts: it is downloadable from the run page, and another worker
// host that resumes the run finds its files there (a read that misses on disk restores them).

export class WorkspaceError extends Error {}

const ARTIFACT_PREFIX = "workspace/";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The largest file read or written (WORKSPACE_MAX_FILE_BYTES, at most what an artifact keeps). */
export function maxFileBytes() {
  return Math.min(env().WORKSPACE_MAX_FILE_BYTES, ARTIFACT_MAX_BYTES);
}

/**
 * A path the agent gave, as the workspace-relative name it stands for ("./a//b.md" → "a/b.md"),
 * or WorkspaceError saying why not: absolute paths, `..`, NUL bytes, backslashes, hidden or
 * odd names and deep or long paths are refused. The same rules as a run file's name, as every
 * file is also one.
 */
export function workspacePath(input: string, { allowRoot = false } = {}): string {
  if (input.includes("\0")) throw new WorkspaceError("the path contains a NUL byte");
  const raw = input.trim();
  if (raw.length > 180) throw new WorkspaceError("the path is longer than 180 characters");
  if (/^([/\\~]|[A-Za-z]:)/.test(raw))
    throw new WorkspaceError(
      `'${raw}' is an absolute path: give a path inside the run's workspace, such as notes.md`,
    );
  if (raw.includes("\\")) throw new WorkspaceError("use '/' between folders, not '\\'");
  const segments = raw.split("/").filter((s) => s !== "" && s !== ".");
  if (segments.includes(".."))
    throw new WorkspaceError(`'${raw}' leaves the workspace ('..' is not allowed)`);
  const rel = segments.join("/");
  if (!rel) {
    if (allowRoot) return "";
    throw new WorkspaceError("the path is empty: name a file, such as notes.md");
  }
  const problem = nameProblem(ARTIFACT_PREFIX + rel);
  if (problem)
    throw new WorkspaceError(`'${rel}' is not allowed: ${problem.replace(/^'workspace\/?'/, "")}`);
  return rel;
}

/** The run's workspace folder, made if missing, as its real path (no symlinks in it). */
export async function workspaceRoot(executionId: string): Promise<string> {
  if (!UUID.test(executionId)) throw new Error(`not an execution id: ${executionId}`);
  const dir = path.resolve(env().DATA_DIR, "workspaces", executionId.toLowerCase());
  await fs.mkdir(dir, { recursive: true });
  return fs.realpath(dir);
}

/** `real` is `root` or inside it. */
function inside(root: string, real: string) {
  return real === root || real.startsWith(root + path.sep);
}

/**
 * Where `rel` is on disk, checked: every part of it that exists resolves (symlinks followed, by
 * realpath) to somewhere inside the workspace. A symlink planted to point outside is refused.
 */
async function resolveInside(root: string, rel: string): Promise<string> {
  let at = root;
  for (const segment of rel.split("/").filter(Boolean)) {
    const next = path.join(at, segment);
    let real: string;
    try {
      real = await fs.realpath(next);
    } catch (err) {
      if (errorCode(err) === "ENOENT") {
        at = next; // the rest does not exist yet: nothing to follow
        continue;
      }
      throw err;
    }
    if (!inside(root, real))
      throw new WorkspaceError(`'${rel}' leads outside the workspace (a link points elsewhere)`);
    at = real;
  }
  return at;
}

/** The file's text, from disk, or from the run's artifact when this host has not got it. */
export async function readWorkspaceFile(
  db: Db,
  executionId: string,
  rel: string,
): Promise<{ content: string; bytes: number }> {
  const root = await workspaceRoot(executionId);
  const file = await resolveInside(root, rel);
  const max = maxFileBytes();
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (err) {
    const code = errorCode(err);
    if (code !== "ENOENT") throw errorFor(code, rel);
    const restored = await restore(db, executionId, root, rel);
    if (!restored) throw new WorkspaceError(`no file '${rel}' in the workspace`);
    return restored;
  }
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) throw new WorkspaceError(`'${rel}' is a folder: use list_directory`);
    if (!stat.isFile()) throw new WorkspaceError(`'${rel}' is not a regular file`);
    if (stat.size > max)
      throw new WorkspaceError(
        `'${rel}' is ${stat.size} bytes, more than the ${max} read_file reads`,
      );
    const body = await handle.readFile();
    return { content: asText(body, rel), bytes: body.length };
  } finally {
    await handle.close();
  }
}

function errorFor(code: string | undefined, rel: string) {
  if (code === "ELOOP") return new WorkspaceError(`'${rel}' is a link: links are not followed`);
  if (code === "EISDIR") return new WorkspaceError(`'${rel}' is a folder: use list_directory`);
  return new WorkspaceError(`'${rel}' cannot be opened (${code ?? "error"})`);
}

function asText(body: Buffer, rel: string): string {
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(body);
    if (text.includes("\0")) throw new Error("binary");
    return text;
  } catch {
    throw new WorkspaceError(`'${rel}' is not UTF-8 text: read_file reads text files only`);
  }
}

async function restore(db: Db, executionId: string, root: string, rel: string) {
  const { rows } = await db.query(
    "SELECT body, bytes FROM execution_artifacts WHERE execution_id = $1 AND name = $2",
    [executionId, ARTIFACT_PREFIX + rel],
    z.object({ body: z.string(), bytes: num }),
  );
  const row = rows[0];
  if (!row) return null;
  await writeToDisk(root, rel, row.body, true);
  return { content: row.body, bytes: Buffer.byteLength(row.body) };
}

/** Writes the file on disk, inside the workspace; `overwrite: false` refuses an existing file. */
async function writeToDisk(root: string, rel: string, content: string, overwrite: boolean) {
  const dir = path.posix.dirname(rel);
  if (dir !== ".") {
    // Every existing part checked first, so mkdir cannot follow a planted link outside; then the
    // made folder checked again.
    await resolveInside(root, dir);
    await fs.mkdir(path.join(root, dir), { recursive: true });
  }
  const file = await resolveInside(root, rel);
  const flags =
    constants.O_WRONLY |
    constants.O_CREAT |
    constants.O_NOFOLLOW |
    (overwrite ? constants.O_TRUNC : constants.O_EXCL);
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, flags, 0o644);
  } catch (err) {
    const code = errorCode(err);
    if (code === "EEXIST")
      throw new WorkspaceError(`'${rel}' exists already: set overwrite to true to replace it`);
    throw errorFor(code, rel);
  }
  try {
    await handle.writeFile(content, "utf8");
  } finally {
    await handle.close();
  }
}

/**
 * Writes a text file into the run's workspace and keeps it as the run's artifact
 * `workspace/<path>` (downloadable from the run page).
 *
 * The artifact is upserted directly, not inside the engine's lease-held change (a tool runs
 * inside the agent's loop, which holds no transaction). That is safe here: the row is keyed by
 * (execution, name), so a repeated write replaces it as a file written twice would; and the
 * insert only happens while the execution is running, so a stopped or finished run cannot gain
 * files. A worker that lost its lease mid-call may still land this one write: the run's files are
 * then what the agent last wrote, which is what a shared disk would have shown too.
 */
export async function writeWorkspaceFile({
  db,
  executionId,
  taskId,
  rel,
  content,
  overwrite,
}: {
  db: Db;
  executionId: string;
  taskId: string;
  rel: string;
  content: string;
  overwrite: boolean;
}): Promise<{ name: string; bytes: number; content_type: string }> {
  const bytes = Buffer.byteLength(content, "utf8");
  const max = maxFileBytes();
  if (bytes > max)
    throw new WorkspaceError(
      `the content is ${bytes} bytes, more than the ${max} write_file keeps`,
    );
  if (content.includes("\0")) throw new WorkspaceError("the content contains NUL bytes: text only");
  const root = await workspaceRoot(executionId);
  const name = ARTIFACT_PREFIX + rel;
  const contentType = contentTypeFor(rel);
  if (!overwrite) {
    const { rows } = await db.query(
      "SELECT 1 FROM execution_artifacts WHERE execution_id = $1 AND name = $2",
      [executionId, name],
    );
    if (rows.length)
      throw new WorkspaceError(`'${rel}' exists already: set overwrite to true to replace it`);
  }
  // A file where a folder is (or the other way round) is refused by what the run keeps, so
  // every host agrees, before anything is kept.
  const parents = rel
    .split("/")
    .slice(0, -1)
    .map((_, i, all) => ARTIFACT_PREFIX + all.slice(0, i + 1).join("/"));
  const clash = await db.query(
    `SELECT name FROM execution_artifacts
      WHERE execution_id = $1 AND (starts_with(name, $2) OR name = ANY($3::text[])) LIMIT 1`,
    [executionId, `${name}/`, parents],
    z.object({ name: z.string() }),
  );
  const other = clash.rows[0]?.name;
  if (other?.startsWith(`${name}/`)) throw new WorkspaceError(`'${rel}' is a folder`);
  if (other)
    throw new WorkspaceError(
      `'${other.slice(ARTIFACT_PREFIX.length)}' is a file, so it cannot hold '${rel}'`,
    );
  await resolveInside(root, rel); // refuse before anything is kept
  // A run being worked on is 'running', or still 'queued' in the database: the worker writes its
  // start behind it (lib/runs/execution-writer.ts), so the first task's tools may run first.
  // Stopped, failed, finished or paused for review, it gains no files.
  const { rowCount } = await db.query(
    `INSERT INTO execution_artifacts (execution_id, name, task_id, content_type, body, bytes)
     SELECT $1, $2, $3, $4, $5, $6 FROM executions
      WHERE id = $1 AND status IN ('queued', 'running')
     ON CONFLICT (execution_id, name) DO UPDATE SET task_id = EXCLUDED.task_id,
       content_type = EXCLUDED.content_type, body = EXCLUDED.body, bytes = EXCLUDED.bytes,
       created_at = now()`,
    [executionId, name, taskId, contentType, content, bytes],
  );
  if (!rowCount) throw new WorkspaceError("the run is not running: its files cannot change now");
  await writeToDisk(root, rel, content, true);
  return { name, bytes, content_type: contentType };
}

/** The run's files under `dir` ("" for all), as the run keeps them (every host sees the same). */
export async function listWorkspace(
  db: Db,
  executionId: string,
  dir: string,
): Promise<{ path: string; bytes: number }[]> {
  const prefix = ARTIFACT_PREFIX + (dir ? `${dir}/` : "");
  const { rows } = await db.query(
    `SELECT name, bytes FROM execution_artifacts
      WHERE execution_id = $1 AND starts_with(name, $2) ORDER BY name LIMIT 1000`,
    [executionId, prefix],
    z.object({ name: z.string(), bytes: num }),
  );
  return rows.map((r) => ({ path: r.name.slice(ARTIFACT_PREFIX.length), bytes: Number(r.bytes) }));
}
