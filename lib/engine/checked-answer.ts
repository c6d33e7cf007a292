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
  const rules = guardrailsOf(task);
  const maxGuardrailRetries = task.guardrail_max_retries ?? DEFAULT_GUARDRAIL_MAX_RETRIES;
  const format = schema ? outputFormatSection(schema) : "";
  const usage: AgentUsage = { input_tokens: 0, output_tokens: 0 };
  let extra = format;
  let invalid = 0;
  let guardrailFailures = 0;

  for (;;) {
    const answer = await ask(extra);
    usage.input_tokens += answer.usage.input_tokens;
    usage.output_tokens += answer.usage.output_tokens;
    let output = answer.output;

    if (schema) {
      const parsed = parseStructured(output, schema);
      if (!parsed.ok) {
        invalid += 1;
        const final = invalid > STRUCTURED_OUTPUT_MAX_RETRIES;
        await record([
          {
            type: "output_invalid",
            data: {
              errors: parsed.errors,
              output,
              retry: invalid,
              max_retries: STRUCTURED_OUTPUT_MAX_RETRIES,
              final,
            },
          },
        ]);
        if (final)
          return {
            ok: false,
            error: `Task '${task.id}' gave no JSON matching its output_json schema in ${invalid} tries: ${parsed.errors.join("; ")}`,
          };
        extra = join(
          format,
          retrySections(
            output,
            parsed.errors.map((e) => `The JSON does not match the schema: ${e}`),
          ),
        );
        continue;
      }
      output = parsed.text;
    }

    let failed: { rule: string; reason: string } | undefined;
    for (const [i, rule] of rules.entries()) {
      const verdict = await checkGuardrail({ model, rule, output, maxRetries, signal });
      if (verdict.pass) {
        await record(
          [
            {
              type: "guardrail_passed",
              data: { guardrail: rule, index: i, reason: verdict.reason },
            },
          ],
          verdict.usage,
        );
        continue;
      }
      guardrailFailures += 1;
      failed = { rule, reason: verdict.reason };
      await record(
        [
          {
            type: "guardrail_failed",
            data: {
              guardrail: rule,
              index: i,
              reason: verdict.reason,
              output,
              retry: guardrailFailures,
              max_retries: maxGuardrailRetries,
              final: guardrailFailures > maxGuardrailRetries,
            },
          },
        ],
        verdict.usage,
      );
      break;
    }
    if (!failed) return { ok: true, output, format: schema ? "json" : "text", usage };
    if (guardrailFailures > maxGuardrailRetries)
      return {
        ok: false,
        error: `Task '${task.id}' failed its guardrail after ${maxGuardrailRetries} ${maxGuardrailRetries === 1 ? "retry" : "retries"}: ${failed.reason} (guardrail: "${failed.rule}")`,
      };
    extra = join(
      format,
      retrySections(output, [`Guardrail "${failed.rule}" failed: ${failed.reason}`]),
    );
  }
}

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
