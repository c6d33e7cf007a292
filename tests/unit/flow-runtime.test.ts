import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Principal } from "@/lib/auth/principal";
import type { FlowProgress } from "@/lib/run-model/flow-progress";
import type { ExecutionRow } from "@/lib/run-model/types";
import { DB_KINDS } from "../support/both-dbs";
import { engineHarness } from "../support/engine-harness";
import { queryAs } from "../support/rows";

// CrewAI's declarative Flows run by the real worker on both databases, offline: CrewAI's own
// example unchanged, and a flow with every kind of join, a router, `each`, a nested crew whose
// task a person reviews, and human feedback that routes by its outcome.

const UPSTREAM = fs.readFileSync(
  path.join(__dirname, "../fixtures/flows/research-review/flow.yaml"),
  "utf8",
);

const RELEASE = `
schema: crewai.flow/v1
name: ReleaseNotesFlow
state:
  type: json_schema
  json_schema:
    type: object
    properties:
      product: { type: string }
      changes: { type: array, items: { type: string } }
      urgent: { type: boolean }
    required: [product, changes]
  default:
    urgent: false
methods:
  collect:
    start: true
    do: { call: expression, expr: "size(state.changes)" }
  classify:
    listen: collect
    router: true
    emit: [major, minor]
    do: { call: expression, expr: "outputs.collect > 2 || state.urgent ? 'major' : 'minor'" }
  lines:
    listen: collect
    do:
      call: each
      in: "\${state.changes}"
      do:
        - name: line
          action: { call: expression, expr: "'- ' + item" }
        - name: loud
          if: "item.startsWith('fix')"
          action: { call: expression, expr: "outputs.line + ' (fix)'" }
  draft:
    listen: { or: [major, minor] }
    do:
      call: crew
      with:
        agents:
          writer: { role: Release writer, goal: "Write release notes for {product}", backstory: Clear and brief. }
        tasks:
          - name: notes
            description: "Write release notes for {product} from: {changes}"
            expected_output: Release notes.
            agent: writer
            human_input: true
      inputs:
        product: "\${state.product}"
        changes: "\${outputs.lines}"
  approve:
    listen: { and: [draft, lines] }
    human_feedback:
      message: Publish these notes?
      emit: [publish, revise]
      default_outcome: revise
    do: { call: expression, expr: "outputs.draft.raw" }
  publish_notes:
    listen: publish
    do: { call: expression, expr: "'Published: ' + state.product" }
  rework:
    listen: revise
    do: { call: expression, expr: "'Revise: ' + state.product" }
`;

const LOOP = `
schema: crewai.flow/v1
name: LoopFlow
config: { max_method_calls: 3 }
methods:
  begin: { start: true, do: { call: expression, expr: "1" } }
  again:
    listen: { or: [begin, loop] }
    router: true
    emit: [loop]
    do: { call: expression, expr: "'loop'" }
`;

const DEADLINE = `
schema: crewai.flow/v1
name: DeadlineFlow
methods:
  propose:
    start: true
    human_feedback:
      message: Go ahead?
      emit: [go, wait]
      default_outcome: wait
      review: { deadline: 1s, on_timeout: approve }
    do: { call: expression, expr: "'a plan'" }
  went:
    listen: go
    do: { call: expression, expr: "'went'" }
  waited:
    listen: wait
    do: { call: expression, expr: "'waited'" }
`;

const org: Principal = { kind: "org", tokenId: null };

for (const database of DB_KINDS) {
  describe(`declarative flows (${database})`, () => {
    const h = engineHarness(
      { upstream: UPSTREAM, release: RELEASE, loop: LOOP, deadline: DEADLINE },
      {},
      { database },
    );
    const flowOf = (row: ExecutionRow) => row.flow as FlowProgress;
    const children = async (id: string) =>
      (
        await queryAs<{ id: string; status: string; meta: Record<string, unknown> }>(
          h.db(),
          "SELECT id, status, meta FROM executions WHERE parent_id = $1 ORDER BY created_at",
          [id],
        )
      ).rows;

    it("runs CrewAI's example flow: a crew, a router's outcome, the listener it picks", async () => {
      const id = await h.kickoff("upstream");
      const row = await h.waitFor(id, (r) => r.status === "completed", 60_000);
      const flow = flowOf(row);
      expect(flow.steps.map((s) => s.method)).toEqual([
        "research_brief",
        "route_followup",
        "write_followup",
      ]);
      expect(flow.steps[1]?.outcome).toBe("followup");
      // The crew's output is read as CrewAI's CrewOutput: `outputs.research_brief.raw`.
      expect(flow.outputs.research_brief).toMatchObject({ raw: expect.any(String) });
      expect(row.result).toBe((flow.outputs.write_followup as { raw: string }).raw);
      // The tokens its nested runs spent count as the flow's.
      expect(row.token_usage.total_tokens).toBeGreaterThan(0);
      // The state's defaults filled the crew's inputs.
      const nested = await children(id);
      expect(nested).toHaveLength(3);
      expect(nested.every((c) => c.status === "completed")).toBe(true);
      expect(nested.map((c) => c.meta.flow_method)).toEqual([
        "research_brief",
        "route_followup",
        "write_followup",
      ]);
      expect(row.tasks.map((t) => [t.task_id, t.status, t.attempts])).toEqual([
        ["research_brief", "completed", 1],
        ["route_followup", "completed", 1],
        ["write_followup", "completed", 1],
      ]);
    });

    it("refuses a kickoff whose state does not match the flow's schema (422), and writes nothing", async () => {
      const before = (await queryAs(h.db(), "SELECT id FROM executions")).rows.length;
      await expect(h.kickoff("release", { product: "Deck" })).rejects.toMatchObject({
        status: 422,
      });
      await expect(
        h.kickoff("release", { product: "Deck", changes: JSON.stringify("not a list") }),
      ).rejects.toMatchObject({ status: 422 });
      expect((await queryAs(h.db(), "SELECT id FROM executions")).rows.length).toBe(before);
    });

    it("joins, routes, loops over items, waits on a nested review and routes by feedback", async () => {
      const { resumeExecution } = await import("@/lib/reviews/resume-execution");
      const id = await h.kickoff("release", {
        product: "Deck",
        changes: JSON.stringify(["fix login", "add export", "fix typo"]),
      });
      // The nested crew's task awaits its reviewer; the flow's caller decides it on the flow.
      const nestedReview = async () => {
        for (;;) {
          const [child] = await children(id);
          if (child?.status === "pending_human_input") return child;
          const row = await h.getRow(id);
          if (["error", "cancelled", "completed"].includes(row.status))
            expect.fail(`flow ended: ${row.status} ${row.error}`);
          await new Promise((r) => setTimeout(r, 25));
        }
      };
      await nestedReview();
      await resumeExecution({
        db: h.db(),
        crew: "release",
        principal: org,
        request: { execution_id: id, task_id: "notes", human_feedback: "Fine.", is_approve: true },
      });
      const paused = await h.waitFor(id, (r) => r.status === "pending_human_input");
      const flow = flowOf(paused);
      expect(flow.steps.map((s) => s.method)).toEqual(["collect", "classify", "lines", "draft"]);
      expect(flow.steps[1]?.outcome).toBe("major");
      expect(flow.outputs.lines).toEqual(["- fix login (fix)", "- add export", "- fix typo (fix)"]);
      expect(paused.open_reviews.map((r) => r.task_id)).toEqual(["approve"]);
      // An outcome not among the method's is refused, and changes nothing.
      await expect(
        resumeExecution({
          db: h.db(),
          crew: "release",
          principal: org,
          request: {
            execution_id: id,
            task_id: "approve",
            human_feedback: "",
            is_approve: true,
            outcome: "ship",
          },
        }),
      ).rejects.toMatchObject({ status: 422 });
      // Feedback that names an outcome routes to it.
      await resumeExecution({
        db: h.db(),
        crew: "release",
        principal: org,
        request: {
          execution_id: id,
          task_id: "approve",
          human_feedback: "publish",
          is_approve: true,
        },
      });
      const done = await h.waitFor(id, (r) => r.status === "completed");
      const end = flowOf(done);
      expect(end.steps.map((s) => [s.method, s.outcome])).toEqual([
        ["collect", undefined],
        ["classify", "major"],
        ["lines", undefined],
        ["draft", undefined],
        ["approve", "publish"],
        ["publish_notes", undefined],
      ]);
      expect(done.result).toBe("Published: Deck");
      expect(done.tasks.find((t) => t.task_id === "rework")?.status).toBe("pending");
    });

    it("takes the default outcome for empty feedback, and the chosen one over the text", async () => {
      const { resumeExecution } = await import("@/lib/reviews/resume-execution");
      for (const [feedback, outcome, result] of [
        ["", undefined, "Revise: Deck"],
        ["please publish", "revise", "Revise: Deck"],
      ] as const) {
        const id = await h.kickoff("release", {
          product: "Deck",
          changes: JSON.stringify(["one"]),
          urgent: true,
        });
        for (const task of ["notes", "approve"]) {
          for (;;) {
            const row = await h.getRow(id);
            const [child] = await children(id);
            const awaiting =
              task === "notes"
                ? child?.status === "pending_human_input"
                : row.status === "pending_human_input";
            if (awaiting) break;
            if (["error", "cancelled", "completed"].includes(row.status))
              expect.fail(`flow ended: ${row.status} ${row.error}`);
            await new Promise((r) => setTimeout(r, 25));
          }
          await resumeExecution({
            db: h.db(),
            crew: "release",
            principal: org,
            request: {
              execution_id: id,
              task_id: task,
              human_feedback: task === "notes" ? "ok" : feedback,
              is_approve: true,
              ...(task === "approve" && outcome ? { outcome } : {}),
            },
          });
        }
        const done = await h.waitFor(id, (r) => r.status === "completed");
        expect(done.result).toBe(result);
      }
    });

    it("takes the default outcome when the feedback's deadline passes undecided", async () => {
      const { startReviewClock } = await import("@/lib/reviews/clock");
      const clock = startReviewClock({ db: h.db(), intervalMs: 100, log: () => {} });
      try {
        const id = await h.kickoff("deadline");
        const done = await h.waitFor(id, (r) => r.status === "completed");
        expect(flowOf(done).steps.map((s) => [s.method, s.outcome])).toEqual([
          ["propose", "wait"],
          ["waited", undefined],
        ]);
        expect(done.tasks[0]?.reviews?.[0]).toMatchObject({
          reviewer: expect.any(String),
          outcome: "wait",
        });
      } finally {
        await clock.stop();
      }
    });

    it("ends a flow that loops past max_method_calls with CrewAI's message", async () => {
      const id = await h.kickoff("loop");
      const row = await h.waitFor(id, (r) => r.status === "error", 30_000);
      expect(row.status).toBe("error");
      expect(row.error).toContain("Method 'again' has been called 3 times");
      expect(flowOf(row).calls.again).toBe(3);
    });
  });
}
