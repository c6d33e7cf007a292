import type { InboxReview } from "./types";

// Markdown's marks go; an underscore inside a word (DEFAULT_LLM, snake_case) is kept.
export const plain = (md: string) =>
  md
    .replace(/```[\s\S]*?```/g, " ")
    .replace(/^\s{0,3}(#{1,6}|>)\s*/gm, "")
    .replace(/[*`[\]]/g, "")
    .replace(/(^|[^\w])_+|_+(?=[^\w]|$)/g, "$1")
    .replace(/\s+/g, " ")
    .trim();

// A tool call reads as the call itself: `write_file {"filename":"notes.md",…}`.
export const callsPreview = (calls: NonNullable<InboxReview["tool_calls"]>) =>
  calls
    .filter((c) => !c.decision)
    .map((c) => `${c.tool} ${JSON.stringify(c.arguments) ?? ""}`.slice(0, 160))
    .join(" · ");

/** A deadline within the hour (or past) is shown as a warning. */
export function dueSoon(deadlineAt: string | null, now: number): boolean {
  return deadlineAt !== null && Date.parse(deadlineAt) < now + 3_600_000;
}

/** The mark of a selected item: always when picked, on wide screens only when first by default. */
export function selectionClass(selected: boolean, implicit: boolean): string {
  if (selected && !implicit) return "border-l-primary bg-muted";
  if (selected) return "border-l-transparent lg:border-l-primary lg:bg-muted";
  return "border-l-transparent";
}
