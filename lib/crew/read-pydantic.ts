// CrewAI crews ask for structured output with a pydantic model (`output_pydantic=Itinerary`). The
// usual model is a plain class of typed fields, written in the crew's own module:
//   class Itinerary(BaseModel):
//       name: str = Field(..., description="Name of the itinerary")
//       day_plans: List[DayPlan] = Field(..., description="List of day plans")
//       hotel: Optional[str] = None
// Read as text (Python is never run) into the JSON Schema the engine validates with. A field whose
// type cannot be read is left open ({}), never guessed.

export type JsonSchema = Record<string, unknown>;

type Field = { name: string; type: string; required: boolean; description?: string };
type Model = { description?: string; fields: Field[] };

const CLASS = /^([ \t]*)class[ \t]+(\w+)[ \t]*\(([^)]*)\)[ \t]*:[ \t]*$/gm;
const FIELD = /^(\w+)\s*:\s*([^=]+?)\s*(?:=\s*(.+))?$/;

/** Every pydantic model of the module, as JSON Schema, by class name. */
export function readPydanticModels(code: string): Map<string, JsonSchema> {
  const models = new Map<string, Model>();
  for (const m of code.matchAll(CLASS)) {
    const [, indent = "", name, bases] = m;
    if (!name || !bases || !/\bBaseModel\b/.test(bases)) continue;
    models.set(name, readBody(code.slice((m.index ?? 0) + m[0].length), indent.length));
  }
  const schemas = new Map<string, JsonSchema>();
  for (const name of models.keys()) schemas.set(name, toSchema(name, models, []));
  return schemas;
}

function readBody(rest: string, classIndent: number): Model {
  const fields: Field[] = [];
  let description: string | undefined;
  for (const line of rest.split("\n").slice(1)) {
    if (!line.trim()) continue;
    const indent = line.length - line.trimStart().length;
    if (indent <= classIndent) break; // the class ended
    const text = line.trim();
    const doc = /^(?:"""|''')(.*?)(?:"""|''')$/.exec(text);
    if (doc && !fields.length && description === undefined) {
      description = doc[1]?.trim() || undefined;
      continue;
    }
    if (text.startsWith("#") || text.startsWith("@") || text.startsWith("def ")) continue;
    const f = FIELD.exec(text);
    if (!f?.[1] || !f[2] || f[1] === "model_config") continue;
    const init = f[3]?.trim();
    const fieldCall = init?.startsWith("Field(") ? init : undefined;
    fields.push({
      name: f[1],
      type: f[2].trim(),
      // No default, or Field(...) / Field(default=...) with the required marker.
      required: init === undefined || /^Field\(\s*(?:\.\.\.|default\s*=\s*\.\.\.)/.test(init),
      description: fieldCall ? /\bdescription\s*=\s*(['"])(.*?)\1/.exec(fieldCall)?.[2] : undefined,
    });
  }
  return { description, fields };
}

function toSchema(name: string, models: Map<string, Model>, seen: string[]): JsonSchema {
  const model = models.get(name);
  if (!model || seen.includes(name)) return { type: "object" };
  const within = [...seen, name];
  const properties = Object.fromEntries(
    model.fields.map((f) => [
      f.name,
      {
        ...typeSchema(f.type, models, within),
        ...(f.description ? { description: f.description } : {}),
      },
    ]),
  );
  const required = model.fields.filter((f) => f.required && !optional(f.type)).map((f) => f.name);
  return {
    type: "object",
    ...(model.description ? { description: model.description } : {}),
    properties,
    ...(required.length ? { required } : {}),
  };
}

const optional = (type: string) => /^Optional\[/.test(type) || /\|\s*None$/.test(type);

function typeSchema(raw: string, models: Map<string, Model>, seen: string[]): JsonSchema {
  const type = raw.replace(/^typing\./, "").trim();
  const inner = (prefix: string) =>
    type.startsWith(`${prefix}[`) && type.endsWith("]")
      ? type.slice(prefix.length + 1, -1).trim()
      : undefined;
  const union = splitTop(type, "|");
  if (union.length > 1) {
    const rest = union.filter((t) => t !== "None");
    const [only] = rest;
    return rest.length === 1 && only !== undefined
      ? typeSchema(only, models, seen)
      : { anyOf: rest.map((t) => typeSchema(t, models, seen)) };
  }
  const opt = inner("Optional");
  if (opt) return typeSchema(opt, models, seen);
  for (const list of ["List", "list", "Sequence", "Set", "set", "Tuple", "tuple"]) {
    const item = inner(list);
    if (item !== undefined) {
      const first = splitTop(item, ",")[0] ?? "";
      return { type: "array", items: first ? typeSchema(first, models, seen) : {} };
    }
  }
  const literal = inner("Literal");
  if (literal)
    return { enum: splitTop(literal, ",").map((v) => v.replace(/^(['"])(.*)\1$/, "$2")) };
  if (inner("Dict") !== undefined || inner("dict") !== undefined || type === "dict")
    return { type: "object" };
  const simple: Record<string, JsonSchema> = {
    str: { type: "string" },
    int: { type: "integer" },
    float: { type: "number" },
    bool: { type: "boolean" },
    Any: {},
  };
  const known = simple[type];
  if (known) return known;
  if (models.has(type)) return toSchema(type, models, seen);
  return {}; // a type this reader does not know: anything goes
}

// Splits on `sep` outside brackets: "Dict[str, int], str" → ["Dict[str, int]", "str"].
function splitTop(text: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "[" || ch === "(") depth++;
    else if (ch === "]" || ch === ")") depth--;
    else if (ch === sep && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts.filter(Boolean);
}
