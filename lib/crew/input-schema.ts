import type { InputControl, InputProperty, InputSchema } from "@/lib/contract/inputs";

// A crew's typed inputs: the `inputs:` block of its YAML, resolved, and the JSON Schema that
// GET /inputs publishes for it. Pure (no server code): the dashboard's kickoff form imports it.
// The published schema's shape is part of the API's contract (lib/contract/inputs.ts).
export { type InputProperty, InputSchema } from "@/lib/contract/inputs";

export const INPUT_TYPES = ["string", "text", "number", "boolean", "enum", "date", "json"] as const;
type InputType = (typeof INPUT_TYPES)[number];

/** A value as the engine stores it and puts into prompts (json inputs are kept as JSON text). */
export type InputScalar = string | number | boolean;

/** One input of a crew, declared in `inputs:` or only named by a `{placeholder}`. */
export type InputSpec = {
  name: string;
  type: InputType;
  title: string;
  description: string | null;
  required: boolean;
  default?: InputScalar;
  example?: InputScalar;
  options?: string[]; // enum only
  declared: boolean; // false: a bare `{placeholder}` (a required string, as always)
};

const JSON_TYPE: Record<InputType, InputProperty["type"]> = {
  string: "string",
  text: "string",
  number: "number",
  boolean: "boolean",
  enum: "string",
  date: "string",
  json: "string",
};

const CONTROL: Record<InputType, InputControl> = {
  string: "text",
  text: "textarea",
  number: "number",
  boolean: "checkbox",
  enum: "select",
  date: "date",
  json: "json",
};

/** "target_audience" → "Target audience": the label when the crew gives no title. */
export function titleFromName(name: string) {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[-_]+/g, " ")
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The spec of an input named only by a `{placeholder}`: a required string. */
export function undeclaredInput(name: string): InputSpec {
  return {
    name,
    type: "string",
    title: titleFromName(name),
    description: null,
    required: true,
    declared: false,
  };
}

export function toInputSchema(specs: InputSpec[]): InputSchema {
  const properties: Record<string, InputProperty> = {};
  for (const s of specs) {
    properties[s.name] = {
      type: JSON_TYPE[s.type],
      title: s.title,
      ...(s.description ? { description: s.description } : {}),
      ...(s.default !== undefined ? { default: s.default } : {}),
      ...(s.example !== undefined ? { examples: [s.example] } : {}),
      ...(s.options ? { enum: s.options } : {}),
      ...(s.type === "date" ? { format: "date" as const } : {}),
      ...(s.type === "json" ? { contentMediaType: "application/json" as const } : {}),
      "x-control": CONTROL[s.type],
    };
  }
  return {
    type: "object",
    properties,
    required: specs.filter((s) => s.required).map((s) => s.name),
    "x-order": specs.map((s) => s.name),
  };
}
