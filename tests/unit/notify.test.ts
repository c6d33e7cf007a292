import { describe, expect, it } from "vitest";
import { recipientsOf } from "@/lib/notify/enqueue";
import { signReviewLink, verifyReviewLink } from "@/lib/notify/link-token";
import { describeEvent, toEmail, toSlack } from "@/lib/notify/messages";
import { DEFAULT_PREFS, withDefaults } from "@/lib/notify/preferences";
import { matchAssignees, type Person } from "@/lib/notify/recipients";
import type { AppliedEvent, ExecutionRow } from "@/lib/run-model/types";

const SECRET = "a-test-auth-secret-that-is-long-enough-0123";
const LINK = {
  execution_id: "0b7f7d2e-3c1a-4a55-9d7e-2d6f1f3c9a10",
  crew: "review",
  task_id: "draft",
  attempt: 1,
  recipient: "u-1",
};
const HOUR = 3_600_000;

describe("review links", () => {
  const now = Date.UTC(2026, 0, 1);
  const token = signReviewLink(SECRET, LINK, { ttlHours: 168, now });

  it("verify with the same secret, before they expire", () => {
    expect(verifyReviewLink(SECRET, token, now + 167 * HOUR)).toEqual({
      ok: true,
      link: { purpose: "review", ...LINK, exp: (now + 168 * HOUR) / 1000 },
    });
  });

  it.each([
    ["expired", token, now + 168 * HOUR, "expired"],
    [
      "signed with another secret",
      signReviewLink(`${SECRET}x`, LINK, { ttlHours: 1, now }),
      now,
      "forged",
    ],
    ["payload changed (another run)", retarget(token), now, "forged"],
    ["signature cut short", token.slice(0, -3), now, "forged"],
    ["no signature", token.split(".")[0] as string, now, "malformed"],
    ["not a token", "hello", now, "malformed"],
  ])("refuse a link %s", (_name, t, at, reason) => {
    expect(verifyReviewLink(SECRET, t, at)).toEqual({ ok: false, reason });
  });

  it("refuse a correctly signed payload for another purpose", () => {
    // The same key signing a session-like payload must not open a review.
    const other = signReviewLink(SECRET, LINK, { ttlHours: 1, now }).split(".")[0] as string;
    const payload = JSON.parse(Buffer.from(other, "base64url").toString());
    const body = Buffer.from(JSON.stringify({ ...payload, purpose: "login" })).toString(
      "base64url",
    );
    expect(verifyReviewLink(SECRET, `${body}.${token.split(".")[1]}`, now).ok).toBe(false);
  });
});

function retarget(token: string) {
  const [body, sig] = token.split(".") as [string, string];
  const payload = JSON.parse(Buffer.from(body, "base64url").toString());
  payload.execution_id = "11111111-1111-4111-8111-111111111111";
  return `${Buffer.from(JSON.stringify(payload)).toString("base64url")}.${sig}`;
}

const person = (email: string, role: Person["role"], teams: string[] = []): Person => ({
  id: email,
  email,
  name: null,
  role,
  teams,
  prefs: DEFAULT_PREFS,
});
const PEOPLE = [
  person("ada@example.com", "admin"),
  person("rev@example.com", "reviewer", ["legal"]),
  person("op@example.com", "operator", ["legal"]),
  person("view@example.com", "viewer"),
];
const emails = (ps: Person[]) => ps.map((p) => p.email);

describe("who a review notification is for", () => {
  it.each([
    ["no assignees: everyone who may review", undefined, ["ada@example.com", "rev@example.com"]],
    ["empty assignees: the same", [], ["ada@example.com", "rev@example.com"]],
    ["a person by e-mail, any case", ["OP@Example.com"], ["op@example.com"]],
    ["a role", ["viewer"], ["view@example.com"]],
    ["a team", ["legal"], ["rev@example.com", "op@example.com"]],
    ["unknown names match nobody", ["nobody@example.com", "sales"], []],
  ])("%s", (_name, assignees, expected) => {
    expect(emails(matchAssignees(assignees, PEOPLE))).toEqual(expected);
  });

  const row = { owner_user_id: "op@example.com" };
  it("reminders go to the event's assignees, escalations to its `to`, outcomes to the starter", () => {
    expect(
      emails(recipientsOf("review_reminder", row, { data: { assignees: ["legal"] } }, PEOPLE)),
    ).toEqual(["rev@example.com", "op@example.com"]);
    expect(
      emails(recipientsOf("review_escalation", row, { data: { to: ["admin"] } }, PEOPLE)),
    ).toEqual(["ada@example.com"]);
    expect(emails(recipientsOf("run_outcome", row, { data: {} }, PEOPLE))).toEqual([
      "op@example.com",
    ]);
    expect(recipientsOf("run_outcome", { owner_user_id: null }, { data: {} }, PEOPLE)).toEqual([]);
  });
});

describe("preferences", () => {
  it("fill what was never saved with the defaults", () => {
    expect(withDefaults(null)).toEqual(DEFAULT_PREFS);
    const mine = withDefaults({ review_waiting: { email: false }, bogus: { email: true } });
    expect(mine.review_waiting).toEqual({
      email: false,
      slack: DEFAULT_PREFS.review_waiting.slack,
    });
    expect(mine.run_outcome).toEqual(DEFAULT_PREFS.run_outcome);
  });
});

describe("messages", () => {
  const row = {
    id: LINK.execution_id,
    crew: "review",
    crew_snapshot: { name: "Review <crew>" },
    tasks: [{ task_id: "draft", name: "Draft", output: "old" }],
    result: null,
    error: null,
    stopped_by: null,
  } as unknown as ExecutionRow;
  const event = {
    seq: 3,
    type: "review_requested",
    task_id: "draft",
    attempt: 1,
    data: { name: "Draft", output: "<script>alert(1)</script> & more", deadline_at: null },
    created_at: "",
  } as AppliedEvent;
  const notice = describeEvent({
    row,
    event,
    runUrl: "http://x/crews/review/runs/1",
    reviewUrl: "http://x/review-link/t.s",
  });

  it("say what waits, where, with the link; HTML escaped", () => {
    expect(notice?.subject).toBe("Review waiting: Draft — Review <crew>");
    const mail = toEmail(notice as NonNullable<typeof notice>, "a@example.com");
    expect(mail.text).toContain("Open the review: http://x/review-link/t.s");
    expect(mail.text).toContain("<script>alert(1)</script> & more");
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; &amp; more");
    expect(mail.html).toContain("Review &lt;crew&gt;");
  });

  it("a tool call waiting for approval says so, and shows the call", () => {
    const call = describeEvent({
      row,
      event: {
        ...event,
        data: {
          kind: "tool_call",
          name: "Draft",
          output: "The agent asks to call `write_file` with: {}",
          deadline_at: null,
        },
      },
      runUrl: "http://x/run",
      reviewUrl: "http://x/review-link/t.s",
    });
    expect(call).toMatchObject({
      subject: "Tool call to approve: Draft — Review <crew>",
      excerptLabel: "Tool call",
      excerpt: expect.stringContaining("`write_file`"),
    });
  });

  it("for Slack: text plus blocks, naming the people", () => {
    const slack = toSlack(notice as NonNullable<typeof notice>, ["a@example.com"]);
    expect(slack.text).toBe(
      "Review waiting: Draft — Review <crew> (for a@example.com) — http://x/review-link/t.s",
    );
    expect(JSON.stringify(slack.blocks)).toContain("&lt;script&gt;");
  });

  it("reminders and escalations name the task from the run, with its output and deadline", () => {
    const reminder = describeEvent({
      row,
      event: {
        ...event,
        type: "review_reminded",
        data: { assignees: [], deadline_at: "2026-01-02T10:00:00Z" },
      },
      runUrl: "http://x/run",
      reviewUrl: "http://x/review-link/t.s",
    });
    expect(reminder).toMatchObject({
      subject: "Reminder: review waiting: Draft — Review <crew>",
      excerpt: "old",
    });
    expect(reminder?.lines).toContain("Deadline: Fri, 02 Jan 2026 10:00:00 GMT");
    const escalated = describeEvent({
      row,
      event: { ...event, type: "review_escalated", data: { by: "system", to: ["admin"] } },
      runUrl: "http://x/run",
      reviewUrl: "http://x/review-link/t.s",
    });
    expect(escalated?.subject).toBe("Review escalated to you: Draft — Review <crew>");
    expect(escalated?.lines).toContain("Escalated by: the review deadline");
  });

  it("run outcomes carry the result or the error", () => {
    const failed = describeEvent({
      row,
      event: { ...event, type: "execution_failed", task_id: null, data: { error: "model down" } },
      runUrl: "http://x/run",
    });
    expect(failed).toMatchObject({ subject: "Run failed: Review <crew>", excerpt: "model down" });
    expect(failed?.link.url).toBe("http://x/run");
  });
});
