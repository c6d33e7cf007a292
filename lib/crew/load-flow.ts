import fs from "node:fs";
import path from "node:path";
import { type CostWarn, celProblem, templateProblem } from "./flow-cel";
import { FLOW_METHOD_KEYS, type FlowAction, type FlowFile, FlowFileSchema } from "./flow-schema";
import {
  isObject,
  LoadError,
  parseOrThrow,
  readJsonc,
  readYaml,
  type Warn,
  warnUnknownKeys,
} from "./read-files";

// CrewAI's declarative Flow (`crewai create flow --declarative`): flow.yaml, `schema:
// crewai.flow/v1`. Read and checked as CrewAI reads it, so a flow CrewAI refuses is refused here
// with CrewAI's reason, and what CrewAI only logs is a warning.

const FILES = ["flow.yaml", "flow.yml", "flow.json"];

/** The folder's flow declaration, if it has one. */
export function findFlow(folder: string): string | undefined {
  return FILES.map((name) => path.join(/* turbopackIgnore: true */ folder, name)).find((file) =>
    fs.existsSync(file),
  );
}

const TOP_KEYS = Object.keys(FlowFileSchema.shape);
const UNKNOWN = "unknown key ignored (not in crewai.flow/v1)";

/** Reads and checks a flow declaration; throws LoadError with the file and key at fault. */
export function readFlow(file: string, warn: Warn): FlowFile {
  const doc = file.endsWith(".json") ? readJsonc(file) : readYaml(file);
  if (!isObject(doc)) throw new LoadError(file, "", "Flow declaration must contain a mapping");
  // Keys CrewAI's FlowDefinition and FlowMethodDefinition do not know are dropped there too.
  warnUnknownKeys(doc, TOP_KEYS, file, "", warn, UNKNOWN);
  if (isObject(doc.methods))
    for (const [name, method] of Object.entries(doc.methods))
      warnUnknownKeys(method, FLOW_METHOD_KEYS, file, `methods.${name}`, warn, UNKNOWN);

  const flow = parseOrThrow(FlowFileSchema, doc, file, "");
  for (const [name, method] of Object.entries(flow.methods)) {
    const at = `methods.${name}`;
    if (references(method.listen, name))
      throw new LoadError(
        file,
        `${at}.listen`,
        `listen condition references the handler name '${name}'. A listener triggered by its own completion creates an infinite loop. Listen to a different method or event, or rename the handler.`,
      );
    const cel = celOf(method.do, `${at}.do`, BASE_ROOTS, (key, message) =>
      warn(file, key, message),
    );
    if (cel) throw new LoadError(file, cel.key, cel.problem);
    refusePython(method.do, file, `${at}.do`, name);
    // What CrewAI logs without refusing the flow.
    if (method.emit?.length && !method.router)
      warn(file, `${at}.emit`, "emit is only used by routers to declare downstream events");
    const feedback = method.human_feedback;
    if (feedback?.default_outcome != null && !feedback.emit?.length)
      warn(
        file,
        `${at}.human_feedback.default_outcome`,
        "default_outcome requires human_feedback.emit",
      );
    else if (
      feedback?.default_outcome != null &&
      !feedback.emit?.includes(feedback.default_outcome)
    )
      warn(
        file,
        `${at}.human_feedback.default_outcome`,
        "default_outcome must be one of human_feedback.emit",
      );
  }
  return flow;
}

// What CEL may read: the state and the finished methods' outputs; inside `each`, the item too.
const BASE_ROOTS = ["outputs", "state"];
const EACH_ROOTS = ["item", "outputs", "state"];

/** The first CEL in `action` CrewAI would refuse, and where (crewai/flow/flow_definition.py). */
function celOf(
  action: FlowAction,
  key: string,
  roots: readonly string[],
  warn: CostWarn,
): { key: string; problem: string } | undefined {
  const checks: [string, string | undefined][] = [];
  const whole = (at: string, expr: string, allowed = roots) =>
    checks.push([at, celProblem(expr, allowed, at, warn)]);
  const template = (at: string, value: unknown) =>
    checks.push([at, templateProblem(value, roots, at, warn)]);
  switch (action.call) {
    case "expression":
      whole(`${key}.expr`, action.expr);
      break;
    case "code":
    case "tool":
      if (action.with != null) template(`${key}.with`, action.with);
      break;
    case "crew":
      if (action.with != null) template(`${key}.with.inputs`, action.with.inputs);
      if (action.inputs != null) template(`${key}.inputs`, action.inputs);
      break;
    case "agent":
      template(`${key}.with.input`, action.with.input);
      break;
    case "each":
      whole(`${key}.in`, action.in, BASE_ROOTS);
      for (const [i, step] of action.do.entries()) {
        const at = `${key}.do[${i}]`;
        if (step.if != null) whole(`${at}.if`, step.if, EACH_ROOTS);
        const inner = celOf(step.action, `${at}.action`, EACH_ROOTS, warn);
        if (inner) checks.push([inner.key, inner.problem]);
      }
      break;
  }
  const found = checks.find(([, problem]) => problem);
  return found?.[1] ? { key: found[0], problem: found[1] } : undefined;
}

function references(condition: unknown, name: string): boolean {
  if (typeof condition === "string") return condition === name;
  if (!isObject(condition)) return false;
  return ["and", "or"].some((op) => {
    const branches = condition[op];
    return Array.isArray(branches) && branches.some((b) => references(b, name));
  });
}

/**
 * Python has no place in Crewdeck: a step that would import or run it is refused when the flow
 * loads, never half-run. What to use instead is said with it.
 */
function refusePython(action: FlowAction, file: string, key: string, method: string) {
  const instead =
    "Crewdeck runs no Python: use an agent (`call: agent`) with a built-in tool or an MCP server, or a CEL `call: expression`.";
  if (action.call === "code" || action.call === "tool")
    throw new LoadError(
      file,
      key,
      `method '${method}': \`call: ${action.call}\` imports Python (${action.ref}). ${instead}`,
    );
  if (action.call === "script")
    throw new LoadError(
      file,
      key,
      `method '${method}': \`call: script\` runs inline Python. ${instead}`,
    );
  if (action.call === "each")
    for (const [i, step] of action.do.entries())
      refusePython(step.action, file, `${key}.do[${i}].action`, method);
}
