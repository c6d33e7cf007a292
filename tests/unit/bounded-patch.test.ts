import { applyPatch, parsePatch } from "diff";
import { describe, expect, it } from "vitest";
import type { TaskDef } from "@/lib/crew/schema";
import { acceptEdit } from "@/lib/runs/edited-output";
import { boundedPatch, PATCH_MAX_CHANGED_LINES, PATCH_MAX_LINES } from "@/lib/util/bounded-patch";

const lines = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => `${tag}${i}`).join("\n");
const headers = { before: "agent", after: "reviewer" };

describe("a reviewer's edit as a patch", () => {
  it("is a line-by-line diff when few lines changed", () => {
    const before = lines(2000, "line ");
    const after = before.replace("line 10\n", "line ten\n");
    const patch = boundedPatch("write", before, after, headers);
    const [parsed] = parsePatch(patch);
    expect(parsed?.hunks).toHaveLength(1);
    expect(parsed?.hunks[0]?.lines.filter((l) => l.startsWith("-"))).toEqual(["-line 10"]);
    expect(applyPatch(before, patch)).toBe(after);
  });

  it("replaces every line when more lines changed than the budget", () => {
    const before = lines(PATCH_MAX_CHANGED_LINES * 2, "a");
    const after = lines(PATCH_MAX_CHANGED_LINES * 2, "b");
    const patch = boundedPatch("write", before, after, headers);
    const hunk = parsePatch(patch)[0]?.hunks[0];
    expect(hunk?.oldLines).toBe(PATCH_MAX_CHANGED_LINES * 2);
    expect(hunk?.newLines).toBe(PATCH_MAX_CHANGED_LINES * 2);
    expect(applyPatch(before, patch)).toBe(after);
  });

  // Before the bound, 20,000 edited lines against 20,000 others ran a full line diff: minutes of
  // one core with every request of the process waiting.
  it("costs only the texts' length past the line budget, through the review's edit", () => {
    const original = lines(PATCH_MAX_LINES * 2, "agent line ");
    const edited = lines(PATCH_MAX_LINES * 2, "reviewer line ");
    const task: TaskDef = {
      id: "write",
      name: "Write",
      agent: "writer",
      description: "Write it.",
      expected_output: "A text.",
      human_input: true,
    };
    const { diff } = acceptEdit({ task, original, edited, inputs: {} });
    const [parsed] = parsePatch(diff);
    expect(parsed?.hunks).toHaveLength(1);
    expect(parsed?.hunks[0]?.lines).toHaveLength(PATCH_MAX_LINES * 4);
    expect(applyPatch(original, diff)).toBe(edited);
  });

  it("handles empty texts on either side", () => {
    expect(applyPatch("", boundedPatch("t", "", "new", headers))).toBe("new");
    expect(applyPatch("old", boundedPatch("t", "old", "", headers))).toBe("");
  });
});
