import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadCrews } from "@/lib/crew/load-crews";
import { parseDuration } from "@/lib/crew/review-policy";
import { isAssigned, isTeamReview, mayDecide, type Person } from "@/lib/reviews/assignment";
import { fireDue } from "@/lib/reviews/clock";
import { openReview, reviewColumns } from "@/lib/run-model/open-reviews";
import type { OpenReview } from "@/lib/run-model/review-types";
import type { ExecutionRow } from "@/lib/run-model/types";

function load(review: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-review-"));
  fs.mkdirSync(path.join(dir, "c"));
  fs.writeFileSync(
    path.join(dir, "c", "crew.yaml"),
    `agents:\n  a: { role: A, goal: G, backstory: B }\ntasks:\n  t:\n    description: D\n    expected_output: E\n    agent: a\n${review}`,
  );
  const catalog = loadCrews(dir);
  fs.rmSync(dir, { recursive: true, force: true });
  return catalog;
}

describe("a task's review block at load", () => {
  it("reads durations", () => {
    expect(parseDuration("4h")).toBe(14_400);
    expect(parseDuration("1d2h30m")).toBe(95_400);
    expect(parseDuration("90s")).toBe(90);
    for (const bad of ["", "4", "h", "0m", "4 hours", "-1h"]) expect(parseDuration(bad)).toBeNull();
  });

  it("implies human_input and keeps the rules", () => {
    const { crews, errors } = load(
      "    review:\n      assignees: [Ada@Example.com, legal]\n      required_approvals: 2\n      deadline: 4h\n      reminders: 1h\n",
    );
    expect(errors).toEqual([]);
    expect(crews.get("c")?.tasks[0]).toMatchObject({
      human_input: true,
      review: { assignees: ["Ada@Example.com", "legal"], required_approvals: 2 },
    });
  });

  it.each([
    ["    review: { on_timeout: stop }\n", /needs a deadline/],
    ["    review: { deadline: soon }\n", /a duration such as 30m/],
    ["    review: { deadline: 1h, on_timeout: later }\n", /on_timeout is one of/],
    ["    review: { deadline: 1h, reminders: [2h] }\n", /not before the deadline/],
    ["    review: { escalate_to: [admin] }\n", /only with on_timeout: escalate/],
    [
      "    review: { assignees: [a@example.com], required_approvals: 2 }\n",
      /2 approvals are needed but only 1 people/,
    ],
    ["    review: { response_schema: { type: nonsense } }\n", /not a usable JSON Schema/],
    ["    review: { reviewers: [x] }\n", /reviewers/],
  ])("refuses %s", (block, message) => {
    const { errors } = load(block);
    expect(errors.map((e) => `${e.key}: ${e.reason}`).join("\n")).toMatch(message);
  });
});

const person = (over: Partial<Person>): Person => ({
  user_id: "u1",
  email: "ada@example.com",
  role: "reviewer",
  teams: [],
  ...over,
});
const review = (over: Partial<OpenReview> = {}): OpenReview => ({
  ...openReview(
    { id: "t", name: "T", description: "D", expected_output: "E", agent: "a", human_input: true },
    1,
    "out",
    new Date("2026-01-01T00:00:00Z"),
  ),
  ...over,
});

describe("who may decide", () => {
  it("anyone who may review when no one is named; else the named, their roles and teams", () => {
    expect(mayDecide(review(), person({}))).toBe(true);
    expect(mayDecide(review(), person({ role: "operator" }))).toBe(false);
    const named = review({ assignees: ["bob@example.com", "legal"] });
    expect(mayDecide(named, person({}))).toBe(false);
    expect(mayDecide(named, person({ teams: ["legal"] }))).toBe(true);
    expect(mayDecide(named, person({ email: "bob@example.com" }))).toBe(true);
    expect(mayDecide(named, person({ role: "admin" }))).toBe(true);
    // An operator named by e-mail still may not review: the role comes first.
    expect(mayDecide(named, person({ email: "bob@example.com", role: "operator" }))).toBe(false);
    // An organization token (no person) may.
    expect(mayDecide(named, null)).toBe(true);
    expect(isAssigned(review({ assignees: ["reviewer"] }), person({}))).toBe(true);
  });

  it("a team review is one reaching them through a role or team, not by name", () => {
    const byName = review({ assignees: ["ada@example.com"] });
    expect(isTeamReview(byName, person({}))).toBe(false);
    expect(
      isTeamReview(review({ assignees: ["x@example.com", "legal"] }), person({ teams: ["legal"] })),
    ).toBe(true);
    expect(isTeamReview(review({ assignees: ["reviewer"] }), person({}))).toBe(true);
    expect(isTeamReview(review({ assignees: ["admin"] }), person({}))).toBe(false);
  });
});

describe("the review clock", () => {
  const at = (iso: string) => new Date(iso);
  const rowWith = (open: OpenReview[]): ExecutionRow =>
    ({
      id: "e",
      status: "pending_human_input",
      tasks: [
        {
          task_id: "t",
          name: "T",
          agent: "a",
          human_input: true,
          status: "pending_human_input",
          attempts: 1,
          output: "out",
          started_at: null,
          finished_at: null,
          execution_time: null,
        },
      ],
      crew_snapshot: { tasks: [{ id: "t" }] },
      open_reviews: open,
      pending_human_input: null,
      review_wait_seconds: 0,
      webhooks: {},
    }) as unknown as ExecutionRow;

  it("sends a due reminder once: the row it leaves has none due", () => {
    const open = review({
      reminders_at: ["2026-01-01T01:00:00.000Z", "2026-01-01T02:00:00.000Z"],
      deadline_at: "2026-01-01T04:00:00.000Z",
      on_timeout: "escalate",
    });
    const first = fireDue(rowWith([open]), at("2026-01-01T01:00:01Z"));
    expect(first.events?.map((e) => e.type)).toEqual(["review_reminded"]);
    const after = first.patch?.open_reviews as OpenReview[];
    expect(after[0]?.reminders_at).toEqual(["2026-01-01T02:00:00.000Z"]);
    // A second worker reading the row after the first one's change finds nothing due.
    expect(fireDue(rowWith(after), at("2026-01-01T01:00:02Z")).events ?? []).toEqual([]);
    expect(first.patch?.review_due_at).toEqual(at("2026-01-01T02:00:00.000Z"));
  });

  it("a passed deadline escalates once, clearing the deadline", () => {
    const open = review({
      assignees: ["reviewer"],
      deadline_at: "2026-01-01T04:00:00.000Z",
      on_timeout: "escalate",
      escalate_to: ["admin"],
    });
    const first = fireDue(rowWith([open]), at("2026-01-01T05:00:00Z"));
    expect(first.events?.map((e) => e.type)).toEqual(["review_timed_out", "review_escalated"]);
    const after = first.patch?.open_reviews as OpenReview[];
    expect(after[0]).toMatchObject({ assignees: ["admin"], deadline_at: null });
    expect(fireDue(rowWith(after), at("2026-01-01T05:00:01Z")).events ?? []).toEqual([]);
    expect(reviewColumns(after, rowWith(after).tasks).review_due_at).toBeNull();
  });
});
