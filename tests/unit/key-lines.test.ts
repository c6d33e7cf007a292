import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { lineOfKey, withLines } from "@/lib/crew/key-lines";

// Warnings and errors say the line their key is on, in YAML and JSONC alike.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-lines-"));
const write = (name: string, text: string) => {
  fs.writeFileSync(path.join(dir, name), text);
  return path.join(dir, name);
};

describe("the line of a key", () => {
  it("finds nested keys, list items and `[n]` indexes in YAML", () => {
    const file = write(
      "flow.yaml",
      [
        "name: F",
        "methods:",
        "  go:",
        "    do:",
        "      call: each",
        "      do:",
        "        - name: one",
        "          action: { call: expression, expr: '1' }",
        "agents:",
        "  w:",
        "    tools: [a, b]",
      ].join("\n"),
    );
    expect(lineOfKey(file, "methods.go.do.call")).toBe(5);
    expect(lineOfKey(file, "methods.go.do.do[0].action")).toBe(8);
    expect(lineOfKey(file, "agents.w.tools.1")).toBe(11);
    // A key not written falls back to the nearest one above it that is.
    expect(lineOfKey(file, "methods.go.do.with.inputs")).toBe(4);
  });

  it("finds keys in JSONC, comments and all", () => {
    const file = write(
      "crew.jsonc",
      '{\n  // the crew\n  "agents": {\n    "w": { "role": "R" }\n  }\n}\n',
    );
    expect(lineOfKey(file, "agents.w.role")).toBe(4);
  });

  it("leaves a problem without a key, or in a file without lines, as it is", () => {
    write("crew.py", "x = 1\n");
    const problems = [
      { file: "crew.py", key: "Agent", message: "m" },
      { file: "flow.yaml", key: "", message: "m" },
      { file: "flow.yaml", key: "name", message: "m" },
    ];
    expect(withLines(dir, problems).map((p) => "line" in p && p.line)).toEqual([false, false, 1]);
  });
});
