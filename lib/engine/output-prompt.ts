// Prompt sections for a task's output checks, in the "# Section" form the offline model reads.

/** Asks for one JSON document matching the task's schema. */
export function outputFormatSection(schema: Record<string, unknown>): string {
  return [
    "# Output format",
    "Reply with one JSON document only, no prose around it, matching this JSON Schema:",
    "```json",
    JSON.stringify(schema, null, 2),
    "```",
  ].join("\n");
}

/** The answer that failed a check, and what to fix: the next try's feedback. */
export function retrySections(previous: string, problems: string[]): string {
  return [
    `# Your previous answer\n${previous}`,
    `# Fix these problems\n${problems.map((p) => `- ${p}`).join("\n")}\nAnswer the task again, in full, with these fixed.`,
  ].join("\n\n");
}

/** CrewAI's LLM guardrail: the agent's model asked whether the output keeps one rule. */
export function guardrailPrompt(rule: string, output: string) {
  return {
    system:
      "You check an agent's output against one rule. Reply PASS if the output keeps the rule. Otherwise reply FAIL: and one or two sentences saying what is wrong, so the agent can fix it.",
    prompt: `# Guardrail\n${rule}\n\n# Output to check\n${output}`,
  };
}

/** The verdict in a reply to guardrailPrompt; a reply that says neither counts as a failure. */
export function parseVerdict(reply: string): { pass: boolean; reason: string } {
  const text = reply.trim();
  if (/^\**PASS\b/i.test(text))
    return { pass: true, reason: text.replace(/^\**PASS\**[:.\s-]*/i, "").trim() };
  const fail = /^\**FAIL\**[:.\s-]*([\s\S]*)$/i.exec(text);
  if (fail) return { pass: false, reason: fail[1]?.trim() || "The guardrail check failed." };
  return {
    pass: false,
    reason: `The checker's reply said neither PASS nor FAIL: ${text.slice(0, 300)}`,
  };
}
