import fs from "node:fs";
import path from "node:path";
import YAML from "yaml";
import type { z } from "zod";
import { parseModelRef } from "@/lib/llm/model-ref";
import { templateProblem } from "@/lib/outputs/output-file";
import { schemaError } from "@/lib/outputs/structured-output";
import { grantedActions } from "@/lib/tracker/actions";
import { InputBlockError, parseInputBlock } from "./input-block";
import { type InputSpec, undeclaredInput } from "./input-schema";
import { findPlaceholders } from "./inputs";
import {
  AgentSchema,
  type CrewDef,
  CrewFileSchema,
  type CrewLoadError,
  type CrewWarning,
  TaskSchema,
} from "./schema";

export type CrewCatalog = {
  crews: Map<string, CrewDef>;
  errors: CrewLoadError[];
  warnings: CrewWarning[];
};

const SLUG = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

class LoadError extends Error {
  constructor(
    readonly file: string,
    readonly key: string,
    reason: string,
  ) {
    super(reason);
  }
}

/** Reads every crew folder; a broken crew is reported and skipped, never fatal to the others. */
export function loadCrews(dir: string): CrewCatalog {
  const catalog: CrewCatalog = { crews: new Map(), errors: [], warnings: [] };
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    catalog.errors.push({
      slug: "*",
      file: dir,
      key: "",
      reason: `cannot read CREWS_DIR: ${(err as Error).message}`,
    });
    return catalog;
  }
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
    const slug = entry.name;
    const folder = path.join(dir, slug);
    // Files are named relative to CREWS_DIR: messages reach API clients and the dashboard.
    const rel = (file: string) => path.relative(dir, file) || ".";
    const warn = (file: string, key: string, message: string) =>
      catalog.warnings.push({ slug, file: rel(file), key, message });
    try {
      if (!SLUG.test(slug)) {
        throw new LoadError(
          folder,
          "",
          "folder names are letters, digits, '_' or '-' (they become the URL)",
        );
      }
      catalog.crews.set(slug, loadCrewFolder(slug, folder, warn));
    } catch (err) {
      if (err instanceof LoadError)
        catalog.errors.push({ slug, file: rel(err.file), key: err.key, reason: err.message });
      else
        catalog.errors.push({ slug, file: rel(folder), key: "", reason: (err as Error).message });
    }
  }
  return catalog;
}

type Warn = (file: string, key: string, message: string) => void;

function loadCrewFolder(slug: string, folder: string, warn: Warn): CrewDef {
  const single = path.join(folder, "crew.yaml");
  const agentsFile = path.join(folder, "config", "agents.yaml");
  const tasksFile = path.join(folder, "config", "tasks.yaml");
  if (fs.existsSync(single)) {
    const doc = readYaml(single);
    warnUnknownKeys(doc, Object.keys(CrewFileSchema.shape), single, "", warn);
    for (const section of ["agents", "tasks"] as const) {
      const shape = section === "agents" ? AgentSchema.shape : TaskSchema.shape;
      const items = isObject(doc) ? doc[section] : undefined;
      if (isObject(items)) {
        for (const [id, item] of Object.entries(items)) {
          warnUnknownKeys(item, Object.keys(shape), single, `${section}.${id}`, warn);
        }
      }
    }
    const parsed = parseOrThrow(CrewFileSchema, doc, single, "");
    return finish(
      slug,
      parsed.name ?? titleFromSlug(slug),
      parsed.description ?? null,
      parsed.agents,
      parsed.tasks,
      [single],
      { agents: single, tasks: single, inputs: single },
      inputBlock(parsed.inputs, single),
      warn,
    );
  }
  if (fs.existsSync(agentsFile) && fs.existsSync(tasksFile)) {
    // CrewAI's layout: two YAML maps; name comes from the folder.
    const agentsDoc = readYaml(agentsFile);
    const tasksDoc = readYaml(tasksFile);
    const agents = parseOrThrow(CrewFileSchema.shape.agents, agentsDoc, agentsFile, "");
    const tasks = parseOrThrow(CrewFileSchema.shape.tasks, tasksDoc, tasksFile, "");
    for (const [id, item] of Object.entries(agentsDoc as object)) {
      warnUnknownKeys(item, Object.keys(AgentSchema.shape), agentsFile, id, warn);
    }
    for (const [id, item] of Object.entries(tasksDoc as object)) {
      warnUnknownKeys(item, Object.keys(TaskSchema.shape), tasksFile, id, warn);
    }
    // Typed inputs in this layout: an optional config/inputs.yaml, a map like the `inputs:` block.
    const inputsFile = path.join(folder, "config", "inputs.yaml");
    const declared = fs.existsSync(inputsFile)
      ? inputBlock(readYaml(inputsFile) ?? {}, inputsFile)
      : undefined;
    return finish(
      slug,
      titleFromSlug(slug),
      null,
      agents,
      tasks,
      declared ? [agentsFile, tasksFile, inputsFile] : [agentsFile, tasksFile],
      { agents: agentsFile, tasks: tasksFile, inputs: inputsFile },
      declared,
      warn,
    );
  }
  throw new LoadError(
    folder,
    "",
    "no crew.yaml, and not both config/agents.yaml and config/tasks.yaml",
  );
}

function finish(
  slug: string,
  name: string,
  description: string | null,
  agentMap: z.infer<typeof CrewFileSchema>["agents"],
  taskMap: z.infer<typeof CrewFileSchema>["tasks"],
  source: string[],
  files: { agents: string; tasks: string; inputs: string },
  declared: InputSpec[] | undefined,
  warn: Warn,
): CrewDef {
  const agents = Object.entries(agentMap).map(([id, a]) => ({ id, ...a }));
  for (const agent of agents) {
    const llmError = agent.llm ? parseModelRef(agent.llm).error : undefined;
    if (llmError) throw new LoadError(files.agents, `${agent.id}.llm`, llmError);
    const apps = grantedActions(agent.apps);
    if (apps.error) throw new LoadError(files.agents, `${agent.id}.apps`, apps.error);
  }
  const seen: string[] = [];
  const tasks = Object.entries(taskMap).map(([id, t]) => {
    if (!agentMap[t.agent]) {
      throw new LoadError(
        files.tasks,
        `${id}.agent`,
        `'${t.agent}' is not an agent of this crew (agents: ${Object.keys(agentMap).join(", ")})`,
      );
    }
    for (const ref of t.context ?? []) {
      if (!seen.includes(ref)) {
        throw new LoadError(
          files.tasks,
          `${id}.context`,
          `'${ref}' is not a task written before '${id}'`,
        );
      }
    }
    seen.push(id);
    return { id, ...outputChecks(id, t, files.tasks), name: t.name ?? id };
  });
  const placeholders = findPlaceholders([
    ...agents.flatMap((a) => [a.role, a.goal, a.backstory]),
    ...tasks.flatMap((t) => [t.description, t.expected_output, t.output_file ?? ""]),
  ]);
  if (!declared) return { slug, name, description, agents, tasks, inputs: placeholders, source };
  // Declared inputs first, in the order written; placeholders not declared follow as strings.
  for (const spec of declared) {
    if (!placeholders.includes(spec.name))
      warn(files.inputs, `inputs.${spec.name}`, "declared, but no {placeholder} uses it");
  }
  const names = new Set(declared.map((s) => s.name));
  const input_specs = [
    ...declared,
    ...placeholders.filter((p) => !names.has(p)).map(undeclaredInput),
  ];
  const inputs = input_specs.map((s) => s.name);
  return { slug, name, description, agents, tasks, inputs, input_specs, source };
}

type TaskEntry = z.infer<typeof CrewFileSchema>["tasks"][string];

// Structured output and output files: what can be known wrong at load is a load error.
function outputChecks(id: string, t: TaskEntry, file: string): TaskEntry {
  if (typeof t.output_pydantic === "string") {
    throw new LoadError(
      file,
      `${id}.output_pydantic`,
      `names a Python class ('${t.output_pydantic}'); give the JSON Schema itself here (an object with type and properties), or use output_json`,
    );
  }
  if (t.output_json && t.output_pydantic) {
    throw new LoadError(file, `${id}.output_json`, "give output_json or output_pydantic, not both");
  }
  const output_json = t.output_json ?? t.output_pydantic;
  const key = t.output_json ? "output_json" : "output_pydantic";
  const problem = output_json ? schemaError(output_json) : undefined;
  if (problem) throw new LoadError(file, `${id}.${key}`, problem);
  const nameProblem = t.output_file ? templateProblem(t.output_file) : undefined;
  if (nameProblem) throw new LoadError(file, `${id}.output_file`, nameProblem);
  const { output_pydantic: _, ...rest } = t;
  return output_json ? { ...rest, output_json } : rest;
}

function inputBlock(block: unknown, file: string) {
  try {
    return parseInputBlock(block);
  } catch (err) {
    if (err instanceof InputBlockError) throw new LoadError(file, err.key, err.message);
    throw err;
  }
}

function readYaml(file: string): unknown {
  const doc = YAML.parseDocument(fs.readFileSync(file, "utf8"), { prettyErrors: true });
  const first = doc.errors[0];
  if (first) throw new LoadError(file, "", `invalid YAML: ${first.message.split("\n")[0]}`);
  return doc.toJS();
}

function parseOrThrow<T extends z.ZodType>(
  schema: T,
  value: unknown,
  file: string,
  prefix: string,
): z.infer<T> {
  const res = schema.safeParse(value);
  if (res.success) return res.data;
  let issue = res.error.issues[0];
  let path = issue?.path ?? [];
  // A bad record key (an agent or task id) carries the real message one level down.
  if (issue?.code === "invalid_key" && issue.issues[0]) {
    path = [...path, ...issue.issues[0].path];
    issue = issue.issues[0] as typeof issue;
  }
  const key = [prefix, ...path.map(String)].filter(Boolean).join(".");
  throw new LoadError(file, key, issue?.message ?? "invalid");
}

function warnUnknownKeys(value: unknown, known: string[], file: string, at: string, warn: Warn) {
  if (!isObject(value)) return;
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) warn(file, at ? `${at}.${key}` : key, "unknown key ignored");
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function titleFromSlug(slug: string) {
  const words = slug.replace(/[-_]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
