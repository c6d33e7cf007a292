import fs from "node:fs";
import path from "node:path";
import protobuf from "protobufjs";

// A strict ProtoJSON check against A2A's normative schema (tests/fixtures/a2a/a2a.proto, v1.0.1):
// every member must be a field of its message with the field's type, every REQUIRED field
// (google.api.field_behavior) present, at most one member of each oneof.

const PROTO = path.join(import.meta.dirname, "../fixtures/a2a/a2a.proto");
let root: protobuf.Root | undefined;

function schema(): protobuf.Root {
  if (root) return root;
  const parsed = protobuf.parse(fs.readFileSync(PROTO, "utf8"), { keepCase: false }).root;
  for (const file of [
    "google/protobuf/struct.proto",
    "google/protobuf/timestamp.proto",
    "google/protobuf/empty.proto",
  ]) {
    const common = protobuf.common.get(file);
    if (common?.nested) parsed.addJSON(common.nested);
  }
  parsed.resolveAll();
  root = parsed;
  return parsed;
}

const INTEGER = new Set([
  "int32",
  "int64",
  "uint32",
  "uint64",
  "sint32",
  "sint64",
  "fixed32",
  "fixed64",
  "sfixed32",
  "sfixed64",
]);
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function required(field: protobuf.Field) {
  const behavior = field.options?.["(google.api.field_behavior)"];
  return behavior === "REQUIRED" || (Array.isArray(behavior) && behavior.includes("REQUIRED"));
}

// Present, that is: a required list may be empty ("no tasks"), a required token "" ("no more").
const absent = (v: unknown) => v === undefined || v === null;

function checkValue(field: protobuf.Field, v: unknown, at: string, out: string[]) {
  const type = field.resolvedType;
  if (type instanceof protobuf.Enum) {
    if (!(typeof v === "string" && v in type.values) && !Number.isInteger(v))
      out.push(`${at}: not a value of ${type.name}`);
    return;
  }
  if (type instanceof protobuf.Type) {
    switch (type.fullName) {
      case ".google.protobuf.Value":
        return;
      case ".google.protobuf.Struct":
        if (!isObject(v)) out.push(`${at}: not an object (Struct)`);
        return;
      case ".google.protobuf.Timestamp":
        if (typeof v !== "string" || Number.isNaN(Date.parse(v)))
          out.push(`${at}: not an RFC 3339 timestamp`);
        return;
      default:
        return checkMessage(type, v, at, out);
    }
  }
  if (field.type === "string" && typeof v !== "string") out.push(`${at}: not a string`);
  if (field.type === "bool" && typeof v !== "boolean") out.push(`${at}: not a boolean`);
  if (INTEGER.has(field.type) && !Number.isInteger(v) && !/^-?\d+$/.test(String(v)))
    out.push(`${at}: not an integer`);
  if ((field.type === "double" || field.type === "float") && typeof v !== "number")
    out.push(`${at}: not a number`);
  if (field.type === "bytes" && typeof v !== "string") out.push(`${at}: not base64 bytes`);
}

function checkMessage(type: protobuf.Type, value: unknown, at: string, out: string[]) {
  if (!isObject(value)) {
    out.push(`${at}: not an object (${type.name})`);
    return;
  }
  const byJson = new Map(type.fieldsArray.map((f) => [f.name, f]));
  for (const [key, v] of Object.entries(value)) {
    const field = byJson.get(key);
    if (!field) {
      out.push(`${at}.${key}: not a field of ${type.name}`);
      continue;
    }
    const here = `${at}.${key}`;
    if (field instanceof protobuf.MapField) {
      if (!isObject(v)) out.push(`${here}: not a map`);
      else for (const [k, item] of Object.entries(v)) checkValue(field, item, `${here}.${k}`, out);
    } else if (field.repeated) {
      if (!Array.isArray(v)) out.push(`${here}: not a list`);
      else for (const [i, item] of v.entries()) checkValue(field, item, `${here}[${i}]`, out);
    } else checkValue(field, v, here, out);
  }
  for (const field of type.fieldsArray)
    if (required(field) && absent(value[field.name]))
      out.push(`${at}.${field.name}: required by ${type.name}`);
  for (const oneof of type.oneofsArray) {
    if (oneof.name.startsWith("_")) continue; // proto3 `optional`, not a real choice
    const set = oneof.fieldsArray.filter((f) => value[f.name] !== undefined);
    if (set.length > 1)
      out.push(`${at}: ${set.map((f) => f.name).join(" and ")} are one of ${oneof.name}`);
  }
}

/** What in `value` breaks the A2A 1.0 message `typeName` (e.g. "AgentCard"); [] when nothing. */
export function a2aProblems(typeName: string, value: unknown): string[] {
  const out: string[] = [];
  checkMessage(schema().lookupType(`lf.a2a.v1.${typeName}`), value, typeName, out);
  return out;
}
