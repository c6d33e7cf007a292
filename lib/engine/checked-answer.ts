import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { TaskDef } from "@/lib/crew/schema";
import { artifactFor } from "@/lib/outputs/output-file";
import { parseStructured, STRUCTURED_OUTPUT_MAX_RETRIES } from "@/lib/outputs/structured-output";
import type { InputValue } from "@/lib/util/placeholders";
import { checkGuardrail, DEFAULT_GUARDRAIL_MAX_RETRIES, guardrailsOf } from "./guardrails";
import { outputFormatSection, retrySections } from "./output-prompt";
import type { AgentUsage } from "./run-agent";

export type CheckEvent = {
  type: "output_invalid" | "guardrail_failed" | "guardrail_passed";
  data: Record<string, unknown>;
};

export type CheckedAnswer =
  | { ok: true; output: string; format: "json" | "text"; usage: AgentUsage }
  | { ok: false; error: string };

/** What one check makes of an answer: it passes (as this text), is asked again, or ends. */
type Verdict = { passed: string } | { retry: string } | { done: CheckedAnswer };

/** The retries spent so far, by kind of check. */
type Tries = { invalid: number; guardrailFailures: number };

type Checks = {
  task: TaskDef;
  model: LanguageModelV3;
  maxRetries: number;
  signal: AbortSignal;
  record: (events: CheckEvent[], usage?: AgentUsage) => Promise<void>;
  /** The output format section every prompt carries ("" without output_json). */
  format: string;
  tries: Tries;
};

/**
 * The agent's answer once it passes the task's checks, as CrewAI does: JSON that matches
 * `output_json` (asked again with the validation errors, a bounded number of times), then each
 * guardrail in order (asked again with the failing rule's reason, up to guardrail_max_retries).
 * Every check is recorded as it happens; a retry is the same attempt with feedback, not a review.
 */
export async function answerWithChecks({
  task,
  model,
  maxRetries,
  signal,
  ask,
  record,
}: {
  task: TaskDef;
  /** The agent's model: it judges the guardrails too. */
  model: LanguageModelV3;
  /** Retries of one model call on transient errors. */
  maxRetries: number;
  signal: AbortSignal;
  /** One run of the agent's loop, with `extra` added to the task's prompt. */
  ask: (extra: string) => Promise<{ output: string; usage: AgentUsage }>;
  record: (events: CheckEvent[], usage?: AgentUsage) => Promise<void>;
}): Promise<CheckedAnswer> {
  const schema = task.output_json;
  const format = schema ? outputFormatSection(schema) : "";
  const checks: Checks = {
    task,
    model,
    maxRetries,
    signal,
    record,
    format,
    tries: { invalid: 0, guardrailFailures: 0 },
  };
  const usage: AgentUsage = { input_tokens: 0, output_tokens: 0 };
  let extra = format;
  for (;;) {
    const answer = await ask(extra);
    usage.input_tokens += answer.usage.input_tokens;
    usage.output_tokens += answer.usage.output_tokens;
    const structured = schema
      ? await checkStructured(answer.output, schema, checks)
      : { passed: answer.output };
    const verdict =
      "passed" in structured ? await checkGuardrails(structured.passed, checks) : structured;
    if ("done" in verdict) return verdict.done;
    if ("passed" in verdict)
      return { ok: true, output: verdict.passed, format: schema ? "json" : "text", usage };
    extra = verdict.retry;
  }
}

/** JSON matching `output_json`, re-serialised; or the validation errors as the next feedback. */
async function checkStructured(
  output: string,
  schema: Record<string, unknown>,
  { task, record, format, tries }: Checks,
): Promise<Verdict> {
  const parsed = parseStructured(output, schema);
  if (parsed.ok) return { passed: parsed.text };
  tries.invalid += 1;
  const final = tries.invalid > STRUCTURED_OUTPUT_MAX_RETRIES;
  await record([
    {
      type: "output_invalid",
      data: {
        errors: parsed.errors,
        output,
        retry: tries.invalid,
        max_retries: STRUCTURED_OUTPUT_MAX_RETRIES,
        final,
      },
    },
  ]);
  if (final)
    return { done: { ok: false, error: invalidJsonError(task.id, tries.invalid, parsed.errors) } };
  const reasons = parsed.errors.map((e) => `The JSON does not match the schema: ${e}`);
  return { retry: join(format, retrySections(output, reasons)) };
}

/** Each guardrail in order, until one fails: its reason is the next feedback, within the bound. */
async function checkGuardrails(output: string, checks: Checks): Promise<Verdict> {
  const { task, format, tries } = checks;
  const maxGuardrailRetries = task.guardrail_max_retries ?? DEFAULT_GUARDRAIL_MAX_RETRIES;
  const failed = await firstFailedGuardrail(output, maxGuardrailRetries, checks);
  if (!failed) return { passed: output };
  if (tries.guardrailFailures > maxGuardrailRetries)
    return { done: { ok: false, error: guardrailError(task.id, maxGuardrailRetries, failed) } };
  return {
    retry: join(
      format,
      retrySections(output, [`Guardrail "${failed.rule}" failed: ${failed.reason}`]),
    ),
  };
}

/** The first guardrail the output fails, each verdict recorded; undefined when all pass. */
async function firstFailedGuardrail(
  output: string,
  maxGuardrailRetries: number,
  { task, model, maxRetries, signal, record, tries }: Checks,
): Promise<{ rule: string; reason: string } | undefined> {
  for (const [i, rule] of guardrailsOf(task).entries()) {
    const verdict = await checkGuardrail({ model, rule, output, maxRetries, signal });
    if (verdict.pass) {
      const passed = { guardrail: rule, index: i, reason: verdict.reason };
      await record([{ type: "guardrail_passed", data: passed }], verdict.usage);
      continue;
    }
    tries.guardrailFailures += 1;
    await record(
      [
        {
          type: "guardrail_failed",
          data: {
            guardrail: rule,
            index: i,
            reason: verdict.reason,
            output,
            retry: tries.guardrailFailures,
            max_retries: maxGuardrailRetries,
            final: tries.guardrailFailures > maxGuardrailRetries,
          },
        },
      ],
      verdict.usage,
    );
    return { rule, reason: verdict.reason };
  }
  return undefined;
}

/** Why a task with output_json failed: no matching JSON within the retries. */
const invalidJsonError = (taskId: string, tries: number, errors: string[]) =>
  `Task '${taskId}' gave no JSON matching its output_json schema in ${tries} tries: ${errors.join("; ")}`;

/** Why a task failed its guardrail: still failing after the retries. */
const guardrailError = (
  taskId: string,
  maxRetries: number,
  failed: { rule: string; reason: string },
) =>
  `Task '${taskId}' failed its guardrail after ${maxRetries} ${maxRetries === 1 ? "retry" : "retries"}: ${failed.reason} (guardrail: "${failed.rule}")`;

const join = (...parts: string[]) => parts.filter(Boolean).join("\n\n");

/**
 * What a checked answer leaves besides its text: the run's file (output_file; ArtifactError when
 * its name or size is refused) and what the completion event says about both.
 */
export function keptOutput(
  task: TaskDef,
  inputs: Record<string, InputValue>,
  answer: { output: string; format: "json" | "text" },
) {
  const artifact = task.output_file
    ? artifactFor(task.output_file, inputs, task.id, answer.output)
    : undefined;
  return {
    artifacts: artifact ? [artifact] : [],
    outputInfo: {
      ...(answer.format === "json" ? { format: "json" } : {}),
      ...(artifact
        ? {
            artifact: {
              name: artifact.name,
              bytes: artifact.bytes,
              content_type: artifact.content_type,
            },
          }
        : {}),
    },
  };
}
