import { skippedPatternWarnings } from "@/lib/outputs/schema-patterns";
import type { FlowPlan } from "./flow-plan";
import type { FlowFile } from "./flow-schema";
import { type InputSpec, titleFromName } from "./input-schema";
import { isObject, type Warn } from "./read-files";

// A flow's state as declared (compile-flow.ts), and its fields as the kickoff's inputs.

export function flowState(flow: FlowFile, file: string, warn: Warn): FlowPlan["state"] {
  const state = flow.state;
  const defaults = state?.default ?? {};
  if (!state || state.type === "dict") return { kind: "dict", schema: null, defaults };
  // Patterns the linear-time engine cannot run go unchecked, said at load (never a refused flow).
  const checked = (schema: Record<string, unknown>) => {
    for (const message of skippedPatternWarnings(schema)) warn(file, "state.json_schema", message);
    return schema;
  };
  if (state.type === "json_schema")
    return { kind: "json_schema", schema: checked(state.json_schema), defaults };
  if (state.type === "pydantic" && state.json_schema)
    return { kind: "pydantic", schema: checked(state.json_schema), defaults };
  warn(
    file,
    "state",
    `a ${state.type} state${"ref" in state && state.ref ? ` (${state.ref})` : ""} names Python Crewdeck cannot read: give it a json_schema to have inputs typed and checked; meanwhile it is a dict`,
  );
  return { kind: state.type, schema: null, defaults };
}

const TYPES: Record<string, InputSpec["type"]> = {
  string: "string",
  integer: "number",
  number: "number",
  boolean: "boolean",
  array: "json",
  object: "json",
};

/** The state's fields as kickoff inputs: required unless it has a default. */
export function stateInputs(state: FlowPlan["state"]): InputSpec[] {
  const props = isObject(state.schema?.properties) ? state.schema.properties : {};
  const required = Array.isArray(state.schema?.required) ? state.schema.required : [];
  const names = [...new Set([...Object.keys(props), ...Object.keys(state.defaults)])];
  return names.map((name): InputSpec => {
    const prop = isObject(props[name]) ? props[name] : {};
    const fallback = state.defaults[name] ?? prop.default;
    const options = Array.isArray(prop.enum) ? prop.enum.map(String) : undefined;
    const type = options ? "enum" : (TYPES[String(prop.type)] ?? jsonType(fallback) ?? "string");
    const scalar =
      typeof fallback === "string" || typeof fallback === "number" || typeof fallback === "boolean";
    return {
      name,
      type,
      title: typeof prop.title === "string" ? prop.title : titleFromName(name),
      description: typeof prop.description === "string" ? prop.description : null,
      required: required.includes(name) && fallback === undefined,
      ...(scalar
        ? { default: fallback }
        : fallback !== undefined
          ? { default: JSON.stringify(fallback) }
          : {}),
      ...(options ? { options } : {}),
      declared: true,
    };
  });
}

function jsonType(value: unknown): InputSpec["type"] | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "boolean";
  if (typeof value === "string") return "string";
  return "json";
}
