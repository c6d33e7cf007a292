import { describe, expect, it } from "vitest";
import { callsPreview, dueSoon, plain, selectionClass } from "@/components/inbox/queue-item-text";
import type { InboxReview } from "@/components/inbox/types";

// How one review reads in the inbox queue.
describe("plain", () => {
  it("drops markdown's marks and keeps underscores inside words", () => {
    expect(plain("# Title\n> quote **bold** `DEFAULT_LLM` _it_ [link]")).toBe(
      "Title quote bold DEFAULT_LLM it link",
    );
  });
  it("drops fenced code and folds whitespace", () => {
    expect(plain("before\n```js\nx()\n```\n  after")).toBe("before after");
  });
});

describe("callsPreview", () => {
  type Call = NonNullable<InboxReview["tool_calls"]>[number];
  const call = (tool: string, args: unknown, decided = false): Call => ({
    call_id: tool,
    tool,
    arguments: args,
    input_schema: {},
    source: null,
    server: null,
    writes: null,
    decision: decided
      ? { approved: true, arguments: args, edited: false, reason: "", reviewer: "a", at: "" }
      : null,
  });
  it("shows the undecided calls as calls, joined", () => {
    const calls = [call("a", { x: 1 }), call("b", { y: 2 }, true), call("c", undefined)];
    expect(callsPreview(calls)).toBe('a {"x":1} · c ');
  });
  it("cuts each call at 160 characters", () => {
    expect(callsPreview([call("t", { s: "x".repeat(300) })])).toHaveLength(160);
  });
});

describe("dueSoon", () => {
  const now = Date.parse("2026-01-01T12:00:00Z");
  it("warns within the hour and after", () => {
    expect(dueSoon("2026-01-01T12:59:00Z", now)).toBe(true);
    expect(dueSoon("2026-01-01T11:00:00Z", now)).toBe(true);
  });
  it("does not warn an hour or more ahead, or with no deadline", () => {
    expect(dueSoon("2026-01-01T13:00:00Z", now)).toBe(false);
    expect(dueSoon(null, now)).toBe(false);
  });
});

describe("selectionClass", () => {
  it("marks a picked item always, a default-first one on wide screens", () => {
    expect(selectionClass(true, false)).toBe("border-l-primary bg-muted");
    expect(selectionClass(true, true)).toBe("border-l-transparent lg:border-l-primary lg:bg-muted");
    expect(selectionClass(false, false)).toBe("border-l-transparent");
    expect(selectionClass(false, true)).toBe("border-l-transparent");
  });
});
