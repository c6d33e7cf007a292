import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { parseCsv } from "@/lib/experiments/csv";
import { rowsFromCsv, rowsFromJsonLines } from "@/lib/experiments/dataset-rows";
import { parseJsonText } from "@/lib/http/read-json";

// Rows uploaded as CSV or JSON Lines are held to what every JSON body is: no NUL and no lone
// UTF-16 surrogate (PostgreSQL stores neither; the database layer would silently replace them),
// refused naming the row, line and column. And an upload's size is bounded before its rows are
// built: at most 1,000 rows of 200 fields, read in one linear pass.

function refusal(fn: () => unknown) {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error("expected a refusal");
}

describe("a CSV upload", () => {
  it("refuses a NUL in a field, naming the row, line and column", () => {
    const err = refusal(() => rowsFromCsv("topic,expected.write\nTides,ok\nMo\u0000ons,ok\n"));
    expect(err.status).toBe(400);
    expect(err.code).toBe("bad-character");
    expect(err.message).toBe(
      "CSV: row 2 (line 3) has a bad character in column 'topic': the string contains a NUL character (\\u0000).",
    );
    expect(err.details.errors).toEqual([
      {
        row: 2,
        line: 3,
        path: "inputs.topic",
        message: "the string contains a NUL character (\\u0000)",
      },
    ]);
  });

  it("refuses a lone surrogate in an expected output, and a NUL in the header", () => {
    const surrogate = refusal(() => rowsFromCsv('topic,expected.write\nTides,"a\ud800b"\n'));
    expect(surrogate.message).toBe(
      "CSV: row 1 (line 2) has a bad character in column 'expected.write': the string contains a lone UTF-16 surrogate (e.g. \\uD800).",
    );
    expect(surrogate.details.errors).toMatchObject([{ row: 1, line: 2, path: "expected.write" }]);
    const header = refusal(() => rowsFromCsv("topic,to\u0000ne\nTides,warm\n"));
    expect(header.status).toBe(400);
    expect(header.message).toBe(
      "CSV: the header (line 1) has a bad character in column 2: the name contains a NUL character (\\u0000).",
    );
  });

  it("refuses more than 200 columns before reading its rows", () => {
    const err = refusal(() => rowsFromCsv(`${"c,".repeat(20_000)}c\n${"x\n".repeat(100)}`));
    expect(err.status).toBe(422);
    expect(err.message).toBe("CSV: line 1 has more than 200 columns; at most 200.");
  });

  it("refuses more than 1,000 rows once it has read 1,001", () => {
    const err = refusal(() => rowsFromCsv(`topic\n${"x\n".repeat(1001)}`));
    expect(err.status).toBe(422);
    expect(err.message).toBe("At most 1000 rows at once; this upload has more.");
    expect(rowsFromCsv(`topic\n${"x\n".repeat(1000)}`)).toHaveLength(1000);
  });

  it("reads a 5 MB field whole", () => {
    const long = "x".repeat(5_000_000);
    expect(parseCsv(`topic\n"${long}"\n`)[1]?.fields[0]).toBe(long);
  });
});

describe("a JSON Lines upload", () => {
  it("refuses NUL and lone surrogates written as escapes, naming row, line and field", () => {
    const nul = refusal(() =>
      rowsFromJsonLines(
        '{"topic": "A"}\n\n{"inputs": {"topic": "B"}, "expected": {"write": "x\\u0000"}}\n',
      ),
    );
    expect(nul.status).toBe(400);
    expect(nul.code).toBe("bad-character");
    expect(nul.message).toBe(
      "JSON Lines: row 2 (line 3) has a bad character at expected.write: the string contains a NUL character (\\u0000).",
    );
    expect(nul.details.errors).toEqual([
      {
        row: 2,
        line: 3,
        path: "expected.write",
        message: "the string contains a NUL character (\\u0000)",
      },
    ]);
    const lone = refusal(() => rowsFromJsonLines('{"topic": "\\udc00"}\n'));
    expect(lone.message).toBe(
      "JSON Lines: row 1 (line 1) has a bad character at topic: the string contains a lone UTF-16 surrogate (e.g. \\uD800).",
    );
    const key = refusal(() => rowsFromJsonLines('{"inputs": {"to\\u0000pic": "B"}}\n'));
    expect(key.message).toContain("row 1 (line 1) has a bad character at inputs: a key contains");
  });

  it("refuses a line nested deeper than a JSON body may be", () => {
    const deep = `${'{"a": '.repeat(100_000)}1${"}".repeat(100_000)}`;
    const err = refusal(() => rowsFromJsonLines(`${deep}\n`));
    expect(err.status).toBe(400);
    expect(err.message).toContain("row 1 (line 1) nests objects or arrays more than 64 levels");
  });

  it("refuses a row of more than 200 fields", () => {
    const wide = Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`k${i}`, "v"]));
    const err = refusal(() => rowsFromJsonLines(`{}\n${JSON.stringify({ inputs: wide })}\n`));
    expect(err.status).toBe(422);
    expect(err.message).toBe(
      "JSON Lines: row 2 (line 2) has more than 200 inputs and expected outputs; at most 200.",
    );
  });

  it("refuses more than 1,000 rows", () => {
    const err = refusal(() => rowsFromJsonLines('{"topic": "x"}\n'.repeat(1001)));
    expect(err.status).toBe(422);
    expect(err.message).toBe("At most 1000 rows at once; this upload has more.");
  });
});

describe("a JSON upload (every JSON body)", () => {
  it("names a bad string deep in a wide body, and lets an escaped backslash be", () => {
    const rows = Array.from({ length: 1000 }, (_, i) => ({ inputs: { topic: `t${i}` } }));
    const body = JSON.stringify({ rows: [...rows, { inputs: { topic: "x\u0000" } }] });
    const err = refusal(() => parseJsonText(body));
    expect(err.message).toBe(
      "The request body has a bad character at rows.1000.inputs.topic: the string contains a NUL character (\\u0000).",
    );
    expect(parseJsonText(JSON.stringify({ rows, note: "a \\u0000 b" }))).toMatchObject({
      note: "a \\u0000 b",
    });
    expect(refusal(() => parseJsonText(`{"k": "\ud800"}`)).message).toContain(
      "at k: the string contains a lone UTF-16 surrogate",
    );
  });
});
