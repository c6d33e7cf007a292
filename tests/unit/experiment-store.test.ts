import { describe, expect, it } from "vitest";
import type { Principal } from "@/lib/auth/principal";
import { appendRows, createDataset, datasetRows, getDataset } from "@/lib/experiments/datasets";
import { embeddedDbForFile } from "../support/embedded-db";

// The dataset store on a real (embedded) database: rows appended in order, all or none.
const file = embeddedDbForFile("experiment-store");
const org: Principal = { kind: "org", tokenId: null };
const scope = { crew: "brief", owner: null };

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
