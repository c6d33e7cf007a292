import { describe, expect, it } from "vitest";
import {
  rowProblemPrefix,
  rowProblemsOf,
  rowsType,
  savedMessage,
  saveLabel,
} from "@/components/experiments/dataset-save";
import type { Dataset } from "@/lib/api/client";

describe("rowsType", () => {
  it("reads rows starting with { as JSON Lines, anything else as CSV", () => {
    expect(rowsType('  \n{"topic":"Tides"}')).toBe("application/jsonl");
    expect(rowsType("topic\nTides")).toBe("text/csv");
  });
});

describe("rowProblemsOf and rowProblemPrefix", () => {
  it("keeps the row and line when they are numbers", () => {
    const [p, q] = rowProblemsOf([
      { row: 3, line: 4, path: "topic", message: "is required" },
      { row: "x", path: "file", message: "is empty" },
    ]);
    expect(p).toEqual({ row: 3, line: 4, path: "topic", message: "is required" });
    expect(q).toEqual({ path: "file", message: "is empty" });
    expect(rowProblemPrefix(p ?? { path: "", message: "" })).toBe("Row 3 (line 4): ");
  });
  it("names the row without a line, and nothing without a row", () => {
    expect(rowProblemPrefix({ row: 2 })).toBe("Row 2: ");
    expect(rowProblemPrefix({ line: 5 })).toBe("");
  });
});

describe("savedMessage and saveLabel", () => {
  const dataset = { name: "Hard cases" } satisfies Partial<Dataset>;
  it("counts the rows added to a dataset, or says the new one was created", () => {
    expect(savedMessage(dataset, "ignored", 4)).toBe("4 rows added to “Hard cases”.");
    expect(savedMessage(undefined, "Easy", 2)).toBe("Dataset “Easy” created with 2 rows.");
    expect(savedMessage(undefined, "Easy", 0)).toBe("Dataset “Easy” created.");
  });
  it("says what the button does, or that it is saving", () => {
    expect(saveLabel(true, true)).toBe("Saving…");
    expect(saveLabel(false, true)).toBe("Add the rows");
    expect(saveLabel(false, false)).toBe("Create the dataset");
  });
});
