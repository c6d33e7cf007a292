import { describe, expect, it } from "vitest";
import { limitedExecute, needsApproval, type OversizedResult } from "@/lib/tools/agent-tools";

const options = (id = "call-1") => ({ toolCallId: id, messages: [] });

describe("per-call limits", () => {
  it("refuses calls beyond the attempt's budget, shared by all its tools", async () => {
    const budget = { left: 2 };
    const limits = { timeoutMs: 5_000, maxChars: 1_000, budget, keepFull: () => {} };
    let ran = 0;
    const a = limitedExecute("a", async () => ++ran, limits);
    const b = limitedExecute("b", async () => ++ran, limits);
    expect(await a({}, options())).toBe(1);
    expect(await b({}, options())).toBe(2);
    expect(await a({}, options())).toEqual({
      error:
        "Tool call limit reached: at most 2 tool calls in one task. Answer with what you have.",
    });
    expect(ran).toBe(2);
  });

  it("fails a call that outlives its time-out, and tells the tool to stop", async () => {
    let aborted = false;
    const never = limitedExecute(
      "slow",
      (_input, { abortSignal }) =>
        new Promise(() => {
          abortSignal?.addEventListener("abort", () => {
            aborted = true;
          });
        }),
      { timeoutMs: 20, maxChars: 1_000, budget: { left: 5 }, keepFull: () => {} },
    );
    await expect(never({}, options())).rejects.toThrow("Tool 'slow' timed out after 0.02 s.");
    expect(aborted).toBe(true);
  });

  it("cuts a long result with a note and hands the whole of it over", async () => {
    const kept: OversizedResult[] = [];
    const long = { text: "x".repeat(500) };
    const run = limitedExecute("read", async () => long, {
      timeoutMs: 5_000,
      maxChars: 100,
      budget: { left: 5 },
      keepFull: (r) => kept.push(r),
    });
    const result = (await run({}, options("c-9"))) as Record<string, unknown>;
    expect(result.truncated).toBe(true);
    expect(result.note).toContain(`${JSON.stringify(long).length} characters`);
    expect(String(result.preview)).toHaveLength(100);
    expect(kept).toEqual([{ call_id: "c-9", tool: "read", full: JSON.stringify(long) }]);
    // Short results pass as they are.
    const short = limitedExecute("read", async () => ({ ok: 1 }), {
      timeoutMs: 5_000,
      maxChars: 100,
      budget: { left: 5 },
      keepFull: (r) => kept.push(r),
    });
    expect(await short({}, options())).toEqual({ ok: 1 });
    expect(kept).toHaveLength(1);
  });
});

describe("requires_approval", () => {
  const writeFile = { name: "write_file", writes: true };
  const readFile = { name: "read_file", writes: false };
  const mcpWrite = { name: "fs_write_file", writes: true, server: "fs", remoteName: "write_file" };

  it("covers all tools, those that write, or the ones named", () => {
    expect(needsApproval(undefined, writeFile)).toBe(false);
    expect(needsApproval(false, writeFile)).toBe(false);
    expect(needsApproval(true, readFile)).toBe(true);
    expect(needsApproval("writes", writeFile)).toBe(true);
    expect(needsApproval("writes", readFile)).toBe(false);
    expect(needsApproval(["write_file"], writeFile)).toBe(true);
    expect(needsApproval(["write_file"], readFile)).toBe(false);
  });

  it("names MCP tools by server/tool or the whole server; a server's own list by tool", () => {
    expect(needsApproval(["fs/write_file"], mcpWrite)).toBe(true);
    expect(needsApproval(["fs#write_file"], mcpWrite)).toBe(true);
    expect(needsApproval(["fs"], mcpWrite)).toBe(true);
    expect(needsApproval(["fs_write_file"], mcpWrite)).toBe(true);
    expect(needsApproval(["other/write_file"], mcpWrite)).toBe(false);
    // The built-in write_file is not the server's.
    expect(needsApproval(["write_file"], mcpWrite)).toBe(false);
    expect(needsApproval(["write_file"], mcpWrite, true)).toBe(true);
  });
});
