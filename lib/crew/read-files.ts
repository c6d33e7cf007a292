import fs from "node:fs";
import { type ParseError, parse as parseJsonc, printParseErrorCode } from "jsonc-parser";
import YAML from "yaml";
import type { z } from "zod";

// What every crew layout needs to read its files and say exactly where a mistake is.

/** A crew that cannot load: the file and the key at fault, and why. */
export class LoadError extends Error {
  constructor(
    readonly file: string,
    readonly key: string,
    reason: string,
  ) {
    super(reason);
  }
}

/** Says what Crewdeck will not do as written; `line` when the key has none to look up (Python). */
export type Warn = (file: string, key: string, message: string, line?: number) => void;

export function readYaml(file: string): unknown {
  const doc = YAML.parseDocument(fs.readFileSync(file, "utf8"), { prettyErrors: true });
  const first = doc.errors[0];
  if (first) throw new LoadError(file, "", `invalid YAML: ${first.message.split("\n")[0]}`);
  return doc.toJS();
}

/** JSON with comments and trailing commas, as CrewAI's CLI writes crew.jsonc and agents/*.jsonc. */
export function readJsonc(file: string): unknown {
  const text = fs.readFileSync(file, "utf8");
  const errors: ParseError[] = [];
  const value = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first) {
    const { line, column } = lineAndColumn(text, first.offset);
    throw new LoadError(
      file,
      "",
      `invalid JSONC at line ${line}, column ${column}: ${printParseErrorCode(first.error)}`,
    );
  }
  return value;
}

function lineAndColumn(text: string, offset: number) {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

export function parseOrThrow<T extends z.ZodType>(
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
  const inner = issue?.code === "invalid_key" ? issue.issues[0] : undefined;
  if (inner) {
    path = [...path, ...inner.path];
    issue = inner;
  }
  const key = [prefix, ...path.map(String)].filter(Boolean).join(".");
  throw new LoadError(file, key, issue?.message ?? "invalid");
}

export function warnUnknownKeys(
  value: unknown,
  known: string[],
  file: string,
  at: string,
  warn: Warn,
  message = "unknown key ignored",
) {
  if (!isObject(value)) return;
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) warn(file, at ? `${at}.${key}` : key, message);
  }
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
