import fs from "node:fs";
import path from "node:path";
import { type JsonSchema, readPydanticModels } from "./read-pydantic";

// The pydantic models a crew's Python names for its structured output (`output_pydantic=Report`,
// or `output_json: Report` in tasks.yaml, which CrewAI's @CrewBase resolves to the class): the
// module's own classes, and those it imports from the project (`from .models import Report`,
// `from my_crew.models import Report`), read as text from the imported file — never run.

const IMPORT = /^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+\(?([\w ,\t\n]+?)\)?[ \t]*$/gm;

/** `from <dots><module> import a, b as c` → the files it may name, nearest first. */
function moduleFiles(dir: string, dots: string, module: string, roots: string[]): string[] {
  const parts = module ? module.split(".") : [];
  const asFiles = (base: string) => [
    `${path.join(base, ...parts)}.py`,
    path.join(base, ...parts, "__init__.py"),
  ];
  if (dots) {
    let base = dir;
    for (let i = 1; i < dots.length; i++) base = path.dirname(base);
    return asFiles(base);
  }
  return roots.flatMap(asFiles);
}

/**
 * Class name → JSON Schema for every model the module at `file` defines or imports from within
 * `project` (the crew's folder: nothing outside it is read).
 */
export function projectModels(
  file: string,
  code: string,
  project: string,
): Map<string, JsonSchema> {
  const models = new Map(readPydanticModels(code));
  const dir = path.dirname(file);
  // Absolute imports resolve against the module's own folder and the project's src/ roots.
  const roots = [dir, project, path.join(project, "src"), path.dirname(dir)];
  for (const m of code.matchAll(IMPORT)) {
    const [, dots = "", module = "", names = ""] = m;
    const wanted = names
      .split(",")
      .map((n) => n.trim().split(/\s+as\s+/))
      .filter(([n]) => n && /^\w+$/.test(n));
    if (!wanted.length) continue;
    const target = moduleFiles(dir, dots, module, roots).find(
      (f) => !path.relative(project, f).startsWith("..") && fs.existsSync(f),
    );
    if (!target) continue;
    const theirs = readPydanticModels(fs.readFileSync(target, "utf8"));
    for (const [name, alias] of wanted) {
      const schema = name ? theirs.get(name) : undefined;
      if (schema) models.set(alias ?? name ?? "", schema);
    }
  }
  return models;
}
