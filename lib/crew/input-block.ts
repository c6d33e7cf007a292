import { isOneOf } from "@/lib/util/one-of";
import { coerceInput } from "./coerce-input";
import { INPUT_TYPES, type InputSpec, titleFromName } from "./input-schema";

// The `inputs:` block of a crew file, checked: any mistake names the input and what is wrong.

export class InputBlockError extends Error {
  constructor(
    readonly key: string, // e.g. "inputs.depth.default"
    reason: string,
  ) {
    super(reason);
  }
}

const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const KEYS = ["type", "title", "description", "default", "required", "example", "options"];

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The declared inputs in the order written; `undefined` when the crew has no block. */
export function parseInputBlock(block: unknown): InputSpec[] | undefined {
  if (block === undefined) return undefined;
  if (!isObject(block))
    throw new InputBlockError(
      "inputs",
      "inputs must be a map from input name to its description (type, description, default, …)",
    );
  return Object.entries(block).map(([name, decl]) => parseOne(name, decl));
}

function parseOne(name: string, decl: unknown): InputSpec {
  const at = (key?: string) => (key ? `inputs.${name}.${key}` : `inputs.${name}`);
  const bad = (key: string | undefined, problem: string) =>
    new InputBlockError(at(key), `input '${name}': ${problem}`);
  if (!NAME.test(name))
    throw bad(
      undefined,
      "input names are letters, digits, '_' or '-', starting with a letter or '_' (as in {name})",
    );
  // `topic: text` is short for `topic: {type: text}`; `topic:` alone is a required string.
  const d: Record<string, unknown> =
    decl === null ? {} : typeof decl === "string" ? { type: decl } : isObject(decl) ? decl : {};
  if (decl !== null && typeof decl !== "string" && !isObject(decl))
    throw bad(undefined, "must be a type name or a map (type, description, default, …)");
  for (const key of Object.keys(d)) {
    if (!KEYS.includes(key)) throw bad(key, `unknown key '${key}' (known: ${KEYS.join(", ")})`);
  }

  const type = d.type ?? "string";
  if (typeof type !== "string" || !isOneOf(INPUT_TYPES, type))
    throw bad("type", `type must be one of ${INPUT_TYPES.join(", ")} (got ${show(type)})`);
  for (const key of ["title", "description"] as const) {
    if (d[key] !== undefined && d[key] !== null && typeof d[key] !== "string")
      throw bad(key, `${key} must be a string`);
  }
  if (d.required !== undefined && typeof d.required !== "boolean")
    throw bad("required", "required must be true or false");

  let options: string[] | undefined;
  if (type === "enum") {
    if (!Array.isArray(d.options) || d.options.length === 0)
      throw bad("options", "type enum needs options: a list of the allowed values");
    options = d.options.map((o) => {
      if (typeof o !== "string" && typeof o !== "number")
        throw bad("options", `options must be strings or numbers (got ${show(o)})`);
      return String(o).trim();
    });
    const dup = options.find((o, i) => options?.indexOf(o) !== i);
    if (dup !== undefined) throw bad("options", `option '${dup}' is listed twice`);
    if (options.includes("")) throw bad("options", "options must not be empty");
  } else if (d.options !== undefined) {
    throw bad("options", `options are only for type enum (this input is ${type})`);
  }

  const spec: InputSpec = {
    name,
    type,
    title: typeof d.title === "string" && d.title.trim() ? d.title.trim() : titleFromName(name),
    description:
      typeof d.description === "string" && d.description.trim() ? d.description.trim() : null,
    required: true,
    ...(options ? { options } : {}),
    declared: true,
  };
  for (const key of ["default", "example"] as const) {
    const raw = d[key];
    if (raw === undefined || raw === null) continue;
    if (raw === "") throw bad(key, `${key} must not be empty; leave it out instead`);
    const res = coerceInput(spec, raw);
    if (!res.ok) throw bad(key, `${key} ${show(raw)} ${res.message}`);
    spec[key] = res.value;
  }
  spec.required = typeof d.required === "boolean" ? d.required : spec.default === undefined;
  return spec;
}

function show(v: unknown) {
  const s = typeof v === "string" ? `'${v}'` : JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 60 ? `${s.slice(0, 57)}…` : s;
}
