import type { AppliedEvent, ExecutionRow } from "@/lib/run-model/types";
import type { NotifyEvent } from "./preferences";

// What a notification says, once, then written out as an e-mail (plain text and simple HTML)
// and as a Slack message. Everything from the run is escaped in HTML; Slack gets plain text.
export type Notice = {
  event: NotifyEvent;
  subject: string;
  /** Facts, one per line: task, crew, run, deadline… */
  lines: string[];
  excerpt: string | null;
  excerptLabel: string;
  link: { label: string; url: string };
};

const EXCERPT_CHARS = 600;

function excerptOf(text: unknown): string | null {
  if (typeof text !== "string" || !text.trim()) return null;
  const t = text.trim();
  return t.length > EXCERPT_CHARS ? `${t.slice(0, EXCERPT_CHARS).trimEnd()}…` : t;
}

/** Which kind of notification an event makes, if any. */
export function noticeEvent(type: string): NotifyEvent | null {
  switch (type) {
    case "review_requested":
    case "review_reassigned": // waiting, now for the people it was handed to
      return "review_waiting";
    case "review_reminded":
      return "review_reminder";
    case "review_escalated":
      return "review_escalation";
    case "execution_completed":
    case "execution_failed":
    case "execution_cancelled":
      return "run_outcome";
    default:
      return null;
  }
}

const OUTCOME: Record<string, string> = {
  execution_completed: "Run completed",
  execution_failed: "Run failed",
  execution_cancelled: "Run stopped",
};

export function describeEvent({
  row,
  event,
  runUrl,
  reviewUrl,
}: {
  row: ExecutionRow;
  event: AppliedEvent;
  runUrl: string;
  /** The signed link that opens this review (review events only). */
  reviewUrl?: string;
}): Notice | null {
  const kind = noticeEvent(event.type);
  if (!kind) return null;
  const crew = row.crew_snapshot?.name || row.crew;
  const run = `Run: ${row.id}`;
  if (kind === "run_outcome") {
    const title = OUTCOME[event.type] ?? "Run finished";
    const failed = event.type === "execution_failed";
    return {
      event: kind,
      subject: `${title}: ${crew}`,
      lines: [
        `Crew: ${crew}`,
        run,
        ...(row.stopped_by && !failed ? [`Stopped by: ${row.stopped_by}`] : []),
      ],
      excerpt: excerptOf(
        failed ? (event.data.error ?? row.error) : (event.data.result ?? row.result),
      ),
      excerptLabel: failed ? "Error" : "Result",
      link: { label: "Open the run", url: runUrl },
    };
  }
  const task = row.tasks.find((t) => t.task_id === event.task_id);
  const taskName = String(event.data.name ?? task?.name ?? event.task_id ?? "a task");
  const deadline = typeof event.data.deadline_at === "string" ? event.data.deadline_at : null;
  // Tool calls waiting for approval say so, and show the call instead of an output.
  const toolCall = event.data.kind === "tool_call";
  const title =
    kind === "review_waiting"
      ? toolCall
        ? "Tool call to approve"
        : "Review waiting"
      : kind === "review_reminder"
        ? "Reminder: review waiting"
        : "Review escalated to you";
  return {
    event: kind,
    subject: `${title}: ${taskName} — ${crew}`,
    lines: [
      `Task: ${taskName}`,
      `Crew: ${crew}`,
      run,
      ...(deadline ? [`Deadline: ${new Date(deadline).toUTCString()}`] : []),
      ...(kind === "review_escalation" && typeof event.data.by === "string"
        ? [`Escalated by: ${event.data.by === "system" ? "the review deadline" : event.data.by}`]
        : []),
    ],
    excerpt: excerptOf(event.data.output ?? task?.output),
    excerptLabel: toolCall ? "Tool call" : "Output",
    link: { label: "Open the review", url: reviewUrl ?? runUrl },
  };
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => `&${{ "&": "amp", "<": "lt", ">": "gt", '"': "quot", "'": "#39" }[c]};`,
  );

export function toEmail(n: Notice, to: string) {
  const text = [
    ...n.lines,
    ...(n.excerpt ? ["", `${n.excerptLabel}:`, n.excerpt] : []),
    "",
    `${n.link.label}: ${n.link.url}`,
    "",
    "You get this from Crewdeck; choose what you hear about in Settings → Notifications.",
  ].join("\n");
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">
<p>${n.lines.map(escapeHtml).join("<br>")}</p>
${n.excerpt ? `<p><strong>${escapeHtml(n.excerptLabel)}:</strong></p><pre style="white-space:pre-wrap;background:#f4f4f5;padding:8px">${escapeHtml(n.excerpt)}</pre>` : ""}
<p><a href="${escapeHtml(n.link.url)}">${escapeHtml(n.link.label)}</a></p>
<p style="color:#71717a;font-size:12px">You get this from Crewdeck; choose what you hear about in Settings → Notifications.</p>
</body></html>`;
  return { to, subject: n.subject, text, html };
}

// Slack's mrkdwn treats &, < and > as control characters.
const escapeSlack = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The incoming-webhook body: `text` (the fallback every client shows) and a few blocks. */
export function toSlack(n: Notice, forPeople: string[]) {
  const who = forPeople.length ? ` (for ${forPeople.join(", ")})` : "";
  const text = `${n.subject}${who} — ${n.link.url}`;
  const blocks = [
    {
      type: "section",
      text: { type: "mrkdwn", text: `*${escapeSlack(n.subject)}*${escapeSlack(who)}` },
    },
    { type: "section", text: { type: "mrkdwn", text: escapeSlack(n.lines.join("\n")) } },
    ...(n.excerpt
      ? [
          {
            type: "section",
            text: { type: "mrkdwn", text: `\`\`\`${escapeSlack(n.excerpt)}\`\`\`` },
          },
        ]
      : []),
    {
      type: "section",
      text: { type: "mrkdwn", text: `<${n.link.url}|${escapeSlack(n.link.label)}>` },
    },
  ];
  return { text, blocks };
}
