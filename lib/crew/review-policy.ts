import { z } from "zod";

// A task's `review:` block in the crew file. Every key is optional; without the block a task with
// `human_input: true` is reviewed as before: anyone who may review, one approval, no deadline.

const UNITS = { d: 86_400, h: 3_600, m: 60, s: 1 } as const;

/** "4h", "30m", "1d12h", "90s" → seconds; null when it is not such a duration. */
export function parseDuration(text: string): number | null {
  const m = /^(?:(\d+)d)?\s*(?:(\d+)h)?\s*(?:(\d+)m)?\s*(?:(\d+)s)?$/.exec(text.trim());
  if (!m || !text.trim()) return null;
  const [, d, h, min, s] = m;
  const seconds =
    Number(d ?? 0) * UNITS.d +
    Number(h ?? 0) * UNITS.h +
    Number(min ?? 0) * UNITS.m +
    Number(s ?? 0);
  return seconds > 0 ? seconds : null;
}

const duration = z
  .string({ error: "a duration such as 30m, 4h or 1d" })
  .refine((s) => parseDuration(s) !== null, "a duration such as 30m, 4h or 1d");
const names = z
  .union([z.string(), z.array(z.string())], {
    error: "people by e-mail or role names, as a list",
  })
  .transform((v) => (Array.isArray(v) ? v : [v]).map((s) => s.trim()).filter(Boolean));

const TIMEOUT_ACTIONS = ["approve", "send_back", "stop", "escalate"] as const;
export type TimeoutAction = (typeof TIMEOUT_ACTIONS)[number];

export const ReviewBlockSchema = z
  .object({
    // People (an e-mail) or roles and teams (any other name) who may decide; none = anyone
    // whose role may review.
    assignees: names.optional(),
    // Distinct people who must approve; one send-back sends the task back.
    required_approvals: z
      .number({ error: "required_approvals is a number of people" })
      .int()
      .min(1)
      .max(20)
      .optional(),
    // A JSON Schema the reviewer fills in (a rating, a reason…), kept with the decision.
    response_schema: z.record(z.string(), z.unknown()).optional(),
    deadline: duration.optional(),
    on_timeout: z
      .enum(TIMEOUT_ACTIONS, { error: `on_timeout is one of ${TIMEOUT_ACTIONS.join(", ")}` })
      .optional(),
    // Who an escalation hands the review to (default: admin).
    escalate_to: names.optional(),
    // When to remind the assignees, counted from the request: "1h" or ["1h", "3h"].
    reminders: z
      .union([duration, z.array(duration)])
      .transform((v) => (Array.isArray(v) ? v : [v]))
      .optional(),
  })
  .strict()
  .superRefine((r, ctx) => {
    const problem = (path: string, message: string) =>
      ctx.addIssue({ code: "custom", path: [path], message });
    if (r.on_timeout && !r.deadline) problem("on_timeout", "needs a deadline (e.g. deadline: 4h)");
    if (r.escalate_to && r.on_timeout !== "escalate")
      problem("escalate_to", "applies only with on_timeout: escalate");
    const deadline = r.deadline ? parseDuration(r.deadline) : null;
    for (const reminder of r.reminders ?? []) {
      const at = parseDuration(reminder);
      if (deadline !== null && at !== null && at >= deadline)
        problem("reminders", `${reminder} is not before the deadline (${r.deadline})`);
    }
    const people = (r.assignees ?? []).filter((a) => a.includes("@"));
    const groups = (r.assignees ?? []).filter((a) => !a.includes("@"));
    if (r.required_approvals && r.assignees?.length && !groups.length) {
      if (people.length < r.required_approvals)
        problem(
          "required_approvals",
          `${r.required_approvals} approvals are needed but only ${people.length} people are assigned`,
        );
    }
  });
export type ReviewBlock = z.infer<typeof ReviewBlockSchema>;

/** A task's review rules with the defaults filled in. */
export type ReviewPolicy = {
  assignees: string[];
  required_approvals: number;
  response_schema?: Record<string, unknown>;
  deadline_seconds: number | null;
  on_timeout: TimeoutAction | null;
  escalate_to: string[];
  reminder_seconds: number[];
};

export function reviewPolicy(block: ReviewBlock | undefined): ReviewPolicy {
  const deadline = block?.deadline ? parseDuration(block.deadline) : null;
  return {
    assignees: normalizeAssignees(block?.assignees ?? []),
    required_approvals: block?.required_approvals ?? 1,
    ...(block?.response_schema ? { response_schema: block.response_schema } : {}),
    deadline_seconds: deadline,
    // A deadline alone escalates to an administrator: a review nobody looks at must reach someone.
    on_timeout: deadline ? (block?.on_timeout ?? "escalate") : null,
    escalate_to: normalizeAssignees(block?.escalate_to ?? ["admin"]),
    reminder_seconds: (block?.reminders ?? [])
      .map((r) => parseDuration(r) ?? 0)
      .filter((s) => s > 0)
      .sort((a, b) => a - b),
  };
}

/** E-mails compared case-insensitively; role and team names as written. */
export function normalizeAssignees(list: string[]): string[] {
  return [...new Set(list.map((a) => (a.includes("@") ? a.toLowerCase() : a)))];
}

/** How the log names the review clock when it decides for nobody (analytics leaves it out). */
export const REVIEW_CLOCK_NAME = "review deadline";
