import type { TaskDef } from "@/lib/crew/schema";
import { AppError, errors } from "@/lib/errors";
import { type Artifact, ArtifactError, artifactFor } from "@/lib/outputs/output-file";
import { parseStructured } from "@/lib/outputs/structured-output";
import { boundedPatch } from "@/lib/util/bounded-patch";
import type { InputValue } from "@/lib/util/placeholders";

/**
 * A reviewer's edit of a task's output, checked as the agent's own output was: JSON matching the
 * task's output_json schema when it has one (stored re-serialised, as the engine stores it), and
 * kept as the task's file when it has output_file. The diff goes into the decision's record.
 */
export function acceptEdit({
  task,
  original,
  edited,
  inputs,
}: {
  task: TaskDef;
  original: string;
  edited: string;
  inputs: Record<string, InputValue>;
}): { output: string; diff: string; artifacts: Artifact[] } {
  let output = edited;
  if (task.output_json) {
    const parsed = parseStructured(edited, task.output_json);
    if (!parsed.ok)
      throw errors.unprocessable(
        `The edited output of task '${task.id}' must be JSON matching its output_json schema: ${parsed.errors.join("; ")}.`,
        { errors: parsed.errors.map((message) => ({ path: "edited_output", message })) },
      );
    output = parsed.text;
  }
  let artifacts: Artifact[] = [];
  try {
    artifacts = task.output_file ? [artifactFor(task.output_file, inputs, task.id, output)] : [];
  } catch (err) {
    if (err instanceof ArtifactError)
      throw new AppError(
        "validation",
        422,
        `The edited output of task '${task.id}': ${err.message}`,
      );
    throw err;
  }
  return {
    output,
    diff: boundedPatch(task.id, original, output, { before: "agent", after: "reviewer" }),
    artifacts,
  };
}
