import { type Tool, tool } from "ai";
import { z } from "zod";
import { toolSchema } from "@/lib/tools/tool-schema";
import type { ToolContext } from "@/lib/tools/types";
import { aliased } from "./aliased";
import {
  listWorkspace,
  readWorkspaceFile,
  WorkspaceError,
  workspacePath,
  writeWorkspaceFile,
} from "./workspace";

// The run's workspace as three tools. A refused path or a missing file is the tool's result
// ({error}), so the model can correct itself; only a fault of ours throws.
async function answer<T>(work: () => Promise<T>): Promise<T | { error: string }> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof WorkspaceError) return { error: err.message };
    throw err;
  }
}

const pathArg = z
  .string()
  .max(1000)
  .describe("A path inside the run's workspace, such as notes.md or drafts/plan.md");

const readFileInput = toolSchema(aliased(z.object({ path: pathArg }), { file_path: "path" }));

const writeFileInput = toolSchema(
  aliased(
    z.object({
      filename: pathArg,
      content: z.string().describe("The whole text of the file"),
      directory: z.string().max(1000).optional().describe("A folder in the workspace to put it in"),
      overwrite: z
        .union([z.boolean(), z.enum(["true", "false", "True", "False"])])
        .optional()
        .describe("Replace the file if it exists (default true)"),
    }),
    { path: "filename", file_path: "filename" },
  ),
);

const listDirectoryInput = toolSchema(
  aliased(
    z.object({
      directory: z
        .string()
        .max(1000)
        .optional()
        .describe("A folder in the workspace; all files if left out"),
    }),
    { path: "directory" },
  ),
);

export const readFile = (ctx: ToolContext): Tool =>
  tool({
    description:
      "Reads a UTF-8 text file from this run's workspace (files written with write_file earlier in the run).",
    // CrewAI's FileReadTool names it file_path.
    inputSchema: readFileInput,
    execute: ({ path }) =>
      answer(async () => {
        const rel = workspacePath(path);
        const { content, bytes } = await readWorkspaceFile(ctx.db, ctx.executionId, rel);
        return { path: rel, bytes, content };
      }),
  });

export const writeFile = (ctx: ToolContext): Tool =>
  tool({
    description:
      "Writes a UTF-8 text file into this run's workspace; it is kept with the run and can be downloaded from the run page.",
    // CrewAI's FileWriterTool: filename, content, directory, overwrite.
    inputSchema: writeFileInput,
    execute: ({ filename, content, directory, overwrite }) =>
      answer(async () => {
        const rel = workspacePath(directory ? `${directory}/${filename}` : filename);
        const artifact = await writeWorkspaceFile({
          db: ctx.db,
          executionId: ctx.executionId,
          taskId: ctx.taskId,
          rel,
          content,
          overwrite: overwrite === undefined || String(overwrite).toLowerCase() === "true",
        });
        return { path: rel, bytes: artifact.bytes, written: true, artifact };
      }),
  });

export const listDirectory = (ctx: ToolContext): Tool =>
  tool({
    description:
      "Lists the files in this run's workspace (or in one folder of it), with their sizes.",
    // CrewAI's DirectoryReadTool names it directory.
    inputSchema: listDirectoryInput,
    execute: ({ directory }) =>
      answer(async () => {
        const dir = workspacePath(directory ?? "", { allowRoot: true });
        const files = await listWorkspace(ctx.db, ctx.executionId, dir);
        return { directory: dir || ".", files };
      }),
  });
