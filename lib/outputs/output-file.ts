import { type InputValue, interpolate, PlaceholderBudgetError } from "@/lib/util/placeholders";

// `output_file` names a per-run artifact, not a path on this machine: artifacts live in the
// database (every server process sees them), so a name only has to be safe to show and download.

/** Largest output kept as an artifact; a bigger output fails the task rather than vanish. */
export const ARTIFACT_MAX_BYTES = 1024 * 1024;

const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._ -]*$/;
const MAX_NAME = 200;
const MAX_DEPTH = 4;

export class ArtifactError extends Error {}

/** Why a name is refused, or undefined: relative, no `..`, safe characters, short. */
export function nameProblem(name: string): string | undefined {
  if (!name) return "is empty";
  if (name.length > MAX_NAME) return `is longer than ${MAX_NAME} characters`;
  if (/^([/\\~]|[A-Za-z]:)/.test(name)) return "must be a relative name, not an absolute path";
  if (name.includes("\\")) return "must use '/' between folders, not '\\'";
  const segments = name.split("/");
  if (segments.some((s) => s === "..")) return "must not contain '..'";
  if (segments.length > MAX_DEPTH) return `has more than ${MAX_DEPTH} levels of folders`;
  for (const s of segments) {
    if (!SEGMENT.test(s) || /[. ]$/.test(s))
      return `'${s}' is not a safe name: letters, digits, '.', '_', '-' or spaces, not starting with '.'`;
  }
  return undefined;
}

/** The template's fixed part checked at load, each {placeholder} standing for a safe value. */
export function templateProblem(template: string): string | undefined {
  return nameProblem(stripDotSlash(template.replace(/\{[A-Za-z_][A-Za-z0-9_-]*\}/g, "x")));
}

/** The artifact's name for one run: inputs filled in (made safe first), then checked. */
export function artifactName(template: string, inputs: Record<string, InputValue>): string {
  const safe = Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, safeValue(v)]));
  let filled: string;
  try {
    // Any name past MAX_NAME is refused below: building a far longer one first is waste.
    filled = interpolate(template, safe, { field: "output_file", maxChars: 10 * MAX_NAME });
  } catch (err) {
    if (err instanceof PlaceholderBudgetError) throw new ArtifactError(`${err.message}.`);
    throw err;
  }
  const name = stripDotSlash(filled);
  const problem = nameProblem(name);
  if (problem) throw new ArtifactError(`output_file '${name}' ${problem}.`);
  return name;
}

/** What a download says it is; anything unknown is plain text (outputs are text). */
export function contentTypeFor(name: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? "";
  const types: Record<string, string> = {
    json: "application/json",
    md: "text/markdown; charset=utf-8",
    markdown: "text/markdown; charset=utf-8",
    csv: "text/csv; charset=utf-8",
    yaml: "application/yaml",
    yml: "application/yaml",
    // Served as an attachment and as text: an agent's HTML never runs in our origin.
    html: "text/plain; charset=utf-8",
  };
  return (Object.hasOwn(types, ext) && types[ext]) || "text/plain; charset=utf-8";
}

function safeValue(v: InputValue): string {
  const s = String(v)
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/\.{2,}/g, ".")
    .replace(/^[-.]+|[-.]+$/g, "")
    .slice(0, 80);
  return s || "input";
}

function stripDotSlash(name: string) {
  return name.replace(/^(\.\/)+/, "");
}

export type Artifact = {
  task_id: string;
  name: string;
  content_type: string;
  body: string;
  bytes: number;
};

/** A task's output as the run's artifact; refused (ArtifactError) when too big. */
export function artifactFor(
  template: string,
  inputs: Record<string, InputValue>,
  taskId: string,
  output: string,
): Artifact {
  const name = artifactName(template, inputs);
  const bytes = Buffer.byteLength(output, "utf8");
  if (bytes > ARTIFACT_MAX_BYTES)
    throw new ArtifactError(
      `the output (${bytes} bytes) is larger than the ${ARTIFACT_MAX_BYTES} bytes output_file keeps.`,
    );
  return { task_id: taskId, name, content_type: contentTypeFor(name), body: output, bytes };
}
