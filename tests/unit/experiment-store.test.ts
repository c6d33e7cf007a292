import { describe, expect, it } from "vitest";
import type { Principal } from "@/lib/auth/principal";
import { loadCrews } from "@/lib/crew/load-crews";
import { checkRows, ROW_MAX_CHARS } from "@/lib/experiments/dataset-rows";
import {
  appendRows,
  createDataset,
  DATASET_MAX_CHARS,
  datasetRows,
  getDataset,
} from "@/lib/experiments/datasets";
import { embeddedDbForFile } from "../support/embedded-db";
import { FIXTURE_CREWS } from "../support/harness";

// The dataset store on a real (embedded) database: rows appended in order, all or none.
const file = embeddedDbForFile("experiment-store");
const org: Principal = { kind: "org", tokenId: null };
const scope = { crew: "brief", owner: null };
const brief = () => {
  const crew = loadCrews(FIXTURE_CREWS).crews.get("brief");
  if (!crew) throw new Error("the fixture crew 'brief' is missing");
  return crew;
};

describe("the embedded database", () => {
  it("counts the rows a SELECT returns, as PostgreSQL's client does", async () => {
    expect((await file.db.query("SELECT 1 UNION SELECT 2")).rowCount).toBe(2);
    expect((await file.db.query("SELECT 1 WHERE false")).rowCount).toBe(0);
    expect((await file.db.query("UPDATE datasets SET name = name WHERE false")).rowCount).toBe(0);
  });
});

describe("datasets", () => {
  it("creates a dataset with rows and reads it back by id and by name", async () => {
    const d = await createDataset(file.db, "brief", org, { name: "five" }, [
      { inputs: { topic: "a" }, expected: {} },
    ]);
    expect(d).toMatchObject({ name: "five", row_count: 1, created_by: "org-token:CREW_TOKEN" });
    expect((await getDataset(file.db, scope, "five")).id).toBe(d.id);
    const positions = await appendRows(file.db, scope, d.id, [
      { inputs: { topic: "b" }, expected: { write: "B" } },
      { inputs: { topic: "c" }, expected: {} },
    ]);
    expect(positions).toEqual([2, 3]);
    expect((await datasetRows(file.db, d.id)).map((r) => r.inputs.topic)).toEqual(["a", "b", "c"]);
    await expect(getDataset(file.db, { crew: "other", owner: null }, d.id)).rejects.toThrow(
      /No dataset/,
    );
  });
});

// A dataset is read whole when shown and when an experiment starts: rows held to a size.
describe("a dataset's size", () => {
  it("refuses rows past the dataset's characters, all or none, naming both figures", async () => {
    const d = await createDataset(file.db, "brief", org, { name: "big" }, [
      { inputs: { topic: "small" }, expected: {} },
    ]);
    // 84 rows of 200,000 characters: 16.8 million, past DATASET_MAX_CHARS with the row there.
    const row = (i: number) => ({ inputs: { topic: `${i}${"x".repeat(200_000)}` }, expected: {} });
    const more = Array.from({ length: 84 }, (_, i) => row(i));
    await expect(appendRows(file.db, scope, d.id, more)).rejects.toThrow(
      new RegExp(
        `at most ${DATASET_MAX_CHARS} characters of rows .* this one has [1-9]\\d*, and \\d+ more`,
      ),
    );
    expect((await getDataset(file.db, scope, d.id)).row_count).toBe(1);
  });

  it("refuses a row past its own size, naming the row", () => {
    const { valid, invalid } = checkRows(brief(), [
      { row: 1, inputs: { topic: "fine", audience: "all" }, expected: {} },
      { row: 2, inputs: { topic: "x".repeat(ROW_MAX_CHARS), audience: "all" }, expected: {} },
    ]);
    expect(valid.map((v) => v.row)).toEqual([1]);
    expect(invalid).toEqual([
      {
        row: 2,
        path: "row",
        message: expect.stringMatching(`a row holds at most ${ROW_MAX_CHARS}`),
      },
    ]);
  });
});
