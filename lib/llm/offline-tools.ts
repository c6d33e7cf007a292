import { fieldOf } from "@/lib/util/field";
// Which tool the offline model (./offline-model.ts) calls next, with what arguments, and how it
// reads back what a tool gave it.

// CrewAI's delegation tools (lib/engine/delegation.ts). The offline model hands the task once to
// the coworker whose role and goal share the most words with it, and never asks questions.
export const DELEGATE_TOOL = "delegate_work_to_coworker";
const ASK_TOOL = "ask_question_to_coworker";

export function delegation(
  tools: { name: string; description?: string }[],
  results: Map<string, unknown>,
  { task, expected, context }: { task: string; expected?: string; context?: string },
): { name: string; args: Record<string, unknown> } | undefined {
  const tool = tools.find((t) => t.name === DELEGATE_TOOL);
  if (!tool || results.has(DELEGATE_TOOL)) return undefined;
  const words = (s: string) => new Set(s.toLowerCase().match(/[a-z]{4,}/g) ?? []);
  const wanted = words(task);
  const team = [...(tool.description ?? "").matchAll(/^- ([A-Za-z0-9_-]+): (.*)$/gm)];
  let best: { id: string; score: number } | undefined;
  for (const [, id, about] of team) {
    const score = [...words(about ?? "")].filter((w) => wanted.has(w)).length;
    if (id && (!best || score > best.score)) best = { id, score };
  }
  if (!best) return undefined;
  return {
    name: DELEGATE_TOOL,
    args: {
      task: task.slice(0, 20_000),
      context: [expected && `Expected output: ${expected}`, context].filter(Boolean).join("\n\n"),
      coworker: best.id,
    },
  };
}

// The issue-tracker actions the offline model uses, in order: find a team, file an issue in it,
// then a follow-up sub-issue under that issue. Other tools are each called once.
const TRACKER_PLAN = ["search_teams", "create_issue", "create_sub_issue"];
const TRACKER_ACTIONS = new Set([
  ...TRACKER_PLAN,
  "update_issue",
  "get_issue_by_id",
  "get_issue_by_issue_identifier",
  "search_issue",
  "delete_issue",
  "archive_issue",
  "create_project",
  "update_project",
  "get_project_by_id",
  "delete_project",
]);

export function nextCall(
  tools: { name: string; inputSchema: unknown }[],
  results: Map<string, unknown>,
  { task, expected, firstLine }: { task: string; expected?: string; firstLine: string },
): { name: string; args: Record<string, unknown> } | undefined {
  const has = (name: string) => tools.some((t) => t.name === name);
  const plain = tools.find(
    (t) =>
      !TRACKER_ACTIONS.has(t.name) &&
      t.name !== DELEGATE_TOOL &&
      t.name !== ASK_TOOL &&
      !results.has(t.name),
  );
  if (plain) return { name: plain.name, args: argumentsFor(plain.inputSchema, task) };
  const step = TRACKER_PLAN.find((name) => has(name) && !results.has(name));
  if (!step) return undefined;
  const teams = fieldOf(results.get("search_teams"), "teams");
  const team: unknown = Array.isArray(teams) ? teams[0] : undefined;
  const issue = fieldOf(results.get("create_issue"), "issue");
  const title = firstLine.slice(0, 120);
  if (step === "search_teams") return { name: step, args: {} };
  if (step === "create_issue") {
    return {
      name: step,
      args: {
        teamId: fieldOf(team, "id") ?? "unknown-team",
        title,
        description: [task, expected].filter(Boolean).join("\n\n"),
      },
    };
  }
  if (!issue) return undefined; // nothing to hang a sub-issue on
  return {
    name: step,
    args: {
      parentId: fieldOf(issue, "id"),
      teamId: fieldOf(fieldOf(issue, "team"), "id"),
      title: `Follow-up: ${title}`.slice(0, 120),
      description: expected ?? task,
    },
  };
}

export function describeResult(value: unknown): string {
  const issue = fieldOf(value, "issue");
  const identifier = fieldOf(issue, "identifier");
  if (identifier) return `${identifier} — ${String(fieldOf(issue, "title"))}`;
  const teams = fieldOf(value, "teams");
  if (Array.isArray(teams))
    return `${teams.length} teams (${teams.map((t) => fieldOf(t, "key")).join(", ")})`;
  const error = fieldOf(value, "error");
  const code = fieldOf(error, "code");
  if (code) return `error ${String(code)}: ${String(fieldOf(error, "message"))}`;
  return JSON.stringify(value);
}

// Fills a tool's required parameters from the task so the call passes validation.
function argumentsFor(schema: unknown, task: string): Record<string, unknown> {
  const required = fieldOf(schema, "required");
  const args: Record<string, unknown> = {};
  for (const name of Array.isArray(required) ? required.map(String) : []) {
    const prop = fieldOf(fieldOf(schema, "properties"), name);
    const options = fieldOf(prop, "enum");
    const type = fieldOf(prop, "type");
    if (Array.isArray(options) && options.length) args[name] = options[0];
    else if (type === "number" || type === "integer") args[name] = 1;
    else if (type === "boolean") args[name] = true;
    else args[name] = toolText(name, task);
  }
  return args;
}

// The built-in toolkit's arguments, from the task: a `url` is the first address (scheme://…) in it; a
// file (`path`, `filename`) the first name in `backticks` or that looks like a file, else
// the task itself when it is one word, else notes.md. Anything else gets the task's text.
function toolText(name: string, task: string): string {
  if (name === "url")
    return (
      /\b[a-z][a-z0-9+.-]*:\/\/[^\s<>"'`)]+/i.exec(task)?.[0].replace(/[.,;:!?]+$/, "") ??
      task.slice(0, 500)
    );
  if (name === "path" || name === "filename" || name === "file_path")
    return (
      /`([^`\n]{1,200})`/.exec(task)?.[1] ??
      /(?:^|\s)([\w./-]*\w\.(?:md|txt|json|csv|ya?ml|html))\b/.exec(task)?.[1] ??
      (/^\S+$/.test(task.trim()) ? task.trim() : "notes.md")
    );
  return task.slice(0, 500);
}
