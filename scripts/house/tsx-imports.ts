/**
 * The imports of the .tsx files, which dependency-cruiser's reader (swc, without JSX) cannot
 * read: parsed with oxc, resolved the way tsconfig.json does (`@/` is the checkout's root).
 * tests/unit/layers.test.ts holds them to the same layer rules as the rest.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parseSync } from "oxc-parser";
import { ROOT, sourceFiles } from "./metrics.ts";

export type Edge = { from: string; to: string };

const EXTENSIONS = ["", ".ts", ".tsx", ".js", ".mjs", "/index.ts", "/index.tsx"];

/** The file a specifier names, from the checkout's root; undefined for a package's. */
function resolveImport(from: string, specifier: string): string | undefined {
  let base: string;
  if (specifier.startsWith("@/")) base = specifier.slice(2);
  else if (specifier.startsWith(".")) base = path.join(path.dirname(from), specifier);
  else return undefined;
  for (const ext of EXTENSIONS) {
    const candidate = base + ext;
    const full = path.join(ROOT, candidate);
    if (existsSync(full) && statSync(full).isFile()) return candidate.split(path.sep).join("/");
  }
  throw new Error(`${from}: cannot resolve "${specifier}"`);
}

/** Every import, re-export and dynamic import of a file, type-only ones included. */
function importsOf(file: string): string[] {
  const source = readFileSync(path.join(ROOT, file), "utf8");
  const { module, errors } = parseSync(file, source);
  if (errors.length) throw new Error(`${file}: ${errors[0]?.message}`);
  const specifiers = [
    ...module.staticImports.map((i) => i.moduleRequest.value),
    ...module.staticExports.flatMap((e) => e.entries.map((x) => x.moduleRequest?.value)),
    // A dynamic import's argument, when it is a plain string.
    ...module.dynamicImports.map(
      (d) =>
        source
          .slice(d.moduleRequest.start, d.moduleRequest.end)
          .match(/^["'`]([^"'`$]+)["'`]$/)?.[1],
    ),
  ];
  return [...new Set(specifiers.filter((s): s is string => Boolean(s)))];
}

/** The edges out of every .tsx file under these folders, to files of the checkout. */
export function tsxEdges(folders: readonly string[]): Edge[] {
  return sourceFiles(folders)
    .filter((file) => file.endsWith(".tsx"))
    .flatMap((from) =>
      importsOf(from).flatMap((specifier) => {
        const to = resolveImport(from, specifier);
        return to ? [{ from, to }] : [];
      }),
    );
}
