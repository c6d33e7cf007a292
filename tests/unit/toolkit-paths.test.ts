import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/types";
import {
  listWorkspace,
  readWorkspaceFile,
  WorkspaceError,
  workspacePath,
  workspaceRoot,
  writeWorkspaceFile,
} from "@/lib/tools/builtin/workspace";

// env() is read lazily: this file's workspaces live in their own DATA_DIR.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-toolkit-paths-"));
process.env.DATA_DIR = dataDir;
const outside = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-toolkit-outside-"));
fs.writeFileSync(path.join(outside, "secret.txt"), "top secret");
afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

// The run's artifacts, as the database keeps them: enough of execution_artifacts for these calls.
function fakeDb(running = true) {
  const artifacts = new Map<string, { body: string; bytes: number }>();
  const db = {
    kind: "embedded",
    async query(sql: string, params: unknown[] = []) {
      const [, name, , , body, bytes] = params as [string, string, string, string, string, number];
      if (sql.includes("INSERT INTO execution_artifacts")) {
        if (!running) return { rows: [], rowCount: 0 };
        artifacts.set(name, { body, bytes });
        return { rows: [], rowCount: 1 };
      }
      if (sql.includes("ANY(")) {
        const [, folder, parents] = params as [string, string, string[]];
        const rows = [...artifacts.keys()]
          .filter((n) => n.startsWith(folder) || parents.includes(n))
          .map((n) => ({ name: n }));
        return { rows, rowCount: rows.length };
      }
      if (sql.includes("starts_with")) {
        const rows = [...artifacts]
          .filter(([n]) => n.startsWith(String(params[1])))
          .map(([n, a]) => ({ name: n, bytes: a.bytes }));
        return { rows, rowCount: rows.length };
      }
      const hit = artifacts.get(name);
      return { rows: hit ? [{ ...hit }] : [], rowCount: hit ? 1 : 0 };
    },
  } as unknown as Db;
  return { db, artifacts };
}

const run = () => crypto.randomUUID();

describe("workspacePath", () => {
  it.each([
    ["notes.md", "notes.md"],
    ["./drafts//plan.md", "drafts/plan.md"],
    [" report 2.txt ", "report 2.txt"],
  ])("accepts %j as %j", (input, rel) => {
    expect(workspacePath(input)).toBe(rel);
  });

  it.each([
    ["../x", /leaves the workspace/],
    ["a/../../x", /leaves the workspace/],
    ["/etc/passwd", /absolute path/],
    ["~/x", /absolute path/],
    ["C:/x", /absolute path/],
    ["a\\b", /'\/' between folders/],
    ["a\0b", /NUL/],
    ["", /empty/],
    [".env", /not a safe name/],
    ["a/b/c/d/e.md", /levels of folders/],
    ["x".repeat(181), /longer than 180/],
    ["what?.md", /not a safe name/],
  ])("refuses %j", (input, why) => {
    expect(() => workspacePath(input)).toThrow(WorkspaceError);
    expect(() => workspacePath(input)).toThrow(why);
  });

  it("the workspace itself only where asked for (list_directory)", () => {
    expect(workspacePath(".", { allowRoot: true })).toBe("");
    expect(() => workspacePath(".")).toThrow(/empty/);
  });
});

describe("the workspace on disk", () => {
  it("writes, reads back, lists, and keeps every write as the run's artifact", async () => {
    const { db, artifacts } = fakeDb();
    const id = run();
    const kept = await writeWorkspaceFile({
      db,
      executionId: id,
      taskId: "t",
      rel: "drafts/plan.md",
      content: "# Plan\n",
      overwrite: true,
    });
    expect(kept).toEqual({
      name: "workspace/drafts/plan.md",
      bytes: 7,
      content_type: "text/markdown; charset=utf-8",
    });
    expect(artifacts.get("workspace/drafts/plan.md")?.body).toBe("# Plan\n");
    expect(fs.readFileSync(path.join(dataDir, "workspaces", id, "drafts/plan.md"), "utf8")).toBe(
      "# Plan\n",
    );
    expect(await readWorkspaceFile(db, id, "drafts/plan.md")).toEqual({
      content: "# Plan\n",
      bytes: 7,
    });
    expect(await listWorkspace(db, id, "drafts")).toEqual([{ path: "drafts/plan.md", bytes: 7 }]);
    await expect(
      writeWorkspaceFile({
        db,
        executionId: id,
        taskId: "t",
        rel: "drafts/plan.md",
        content: "x",
        overwrite: false,
      }),
    ).rejects.toThrow(/exists already/);
  });

  it("refuses a file where a folder is, and a folder where a file is", async () => {
    const { db } = fakeDb();
    const id = run();
    const write = (rel: string) =>
      writeWorkspaceFile({ db, executionId: id, taskId: "t", rel, content: "x", overwrite: true });
    await write("drafts/plan.md");
    await expect(write("drafts")).rejects.toThrow("'drafts' is a folder");
    await expect(write("drafts/plan.md/more.md")).rejects.toThrow(
      "'drafts/plan.md' is a file, so it cannot hold 'drafts/plan.md/more.md'",
    );
  });

  it("restores a file another host wrote from the run's artifact", async () => {
    const { db, artifacts } = fakeDb();
    const id = run();
    artifacts.set("workspace/elsewhere.md", { body: "from host B", bytes: 11 });
    expect(await readWorkspaceFile(db, id, "elsewhere.md")).toEqual({
      content: "from host B",
      bytes: 11,
    });
    expect(fs.readFileSync(path.join(dataDir, "workspaces", id, "elsewhere.md"), "utf8")).toBe(
      "from host B",
    );
    await expect(readWorkspaceFile(db, id, "missing.md")).rejects.toThrow(/no file 'missing.md'/);
  });

  it("refuses links planted to point outside, for reading and for writing through them", async () => {
    const { db } = fakeDb();
    const id = run();
    const root = await workspaceRoot(id);
    fs.symlinkSync(outside, path.join(root, "link"));
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(root, "secret.txt"));
    await expect(readWorkspaceFile(db, id, "link/secret.txt")).rejects.toThrow(
      /outside the workspace/,
    );
    await expect(readWorkspaceFile(db, id, "secret.txt")).rejects.toThrow(/outside the workspace/);
    await expect(
      writeWorkspaceFile({
        db,
        executionId: id,
        taskId: "t",
        rel: "link/new/x.md",
        content: "x",
        overwrite: true,
      }),
    ).rejects.toThrow(/outside the workspace/);
    await expect(
      writeWorkspaceFile({
        db,
        executionId: id,
        taskId: "t",
        rel: "secret.txt",
        content: "x",
        overwrite: true,
      }),
    ).rejects.toThrow(/outside the workspace/);
    expect(fs.existsSync(path.join(outside, "new"))).toBe(false);
    expect(fs.readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("top secret");
  });

  it("reads text only, and refuses what is too big", async () => {
    const { db } = fakeDb();
    const id = run();
    const root = await workspaceRoot(id);
    fs.writeFileSync(
      path.join(root, "image.png"),
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0x00]),
    );
    await expect(readWorkspaceFile(db, id, "image.png")).rejects.toThrow(/not UTF-8 text/);
    await expect(
      writeWorkspaceFile({
        db,
        executionId: id,
        taskId: "t",
        rel: "big.txt",
        content: "x".repeat(1024 * 1024 + 1),
        overwrite: true,
      }),
    ).rejects.toThrow(/more than the 1048576 write_file keeps/);
  });

  it("a run that is not running gains no files", async () => {
    const { db } = fakeDb(false);
    const id = run();
    await expect(
      writeWorkspaceFile({
        db,
        executionId: id,
        taskId: "t",
        rel: "late.md",
        content: "x",
        overwrite: true,
      }),
    ).rejects.toThrow(/not running/);
    expect(fs.existsSync(path.join(dataDir, "workspaces", id, "late.md"))).toBe(false);
  });
});

describe("who may write, as the database says", () => {
  it("a run whose start is still being written (queued) may; a finished or paused one may not", async () => {
    const { openFreshEmbeddedInMemory } = await import("../support/pglite-template");
    const db = await openFreshEmbeddedInMemory();
    try {
      const write = (executionId: string) =>
        writeWorkspaceFile({
          db,
          executionId,
          taskId: "t",
          rel: "plan.md",
          content: "x",
          overwrite: true,
        });
      const statuses = ["queued", "running", "completed", "pending_human_input", "cancelled"];
      const ids = Object.fromEntries(statuses.map((s) => [s, run()]));
      for (const [status, id] of Object.entries(ids))
        await db.query(
          `INSERT INTO executions (id, crew, status, inputs, crew_snapshot, tasks)
           VALUES ($1, 'c', $2, '{}'::jsonb, '{}'::jsonb, '[]'::jsonb)`,
          [id, status],
        );
      // The worker records 'running' behind the first task's tools: a write then must not fail.
      expect((await write(ids.queued as string)).bytes).toBe(1);
      expect((await write(ids.running as string)).bytes).toBe(1);
      for (const status of ["completed", "pending_human_input", "cancelled"])
        await expect(write(ids[status] as string), status).rejects.toThrow(/not running/);
    } finally {
      await db.close();
    }
  });
});
