import { describe, expect, it } from "vitest";
import { atCursor, withFilters, withMeta, withoutMeta } from "@/components/runs/filter-url";
import { pageSelection } from "@/components/runs/model";
import { dateBounds, rangeProblem } from "@/components/runs/use-date-range";
import { toggled } from "@/components/runs/use-runs-page";

// The runs list's decisions: how a filter change edits the URL, what a date range may be, and
// what the page's selection box shows.
describe("filter URL edits", () => {
  it("sets and clears filters, leaves others alone and goes back to the first page", () => {
    const next = withFilters("?crew=a&status=failed&cursor=c2&x=1", { crew: "b", status: "" });
    expect(next.toString()).toBe("x=1&crew=b");
  });
  it("adds a tag once and removes one keeping the rest in order", () => {
    expect(withMeta("meta=a&cursor=c", "b").toString()).toBe("meta=a&meta=b");
    expect(withMeta("meta=a", "a").toString()).toBe("meta=a");
    expect(withoutMeta("meta=a&meta=b&meta=c&cursor=x", "b").toString()).toBe("meta=a&meta=c");
  });
  it("pages without touching the filters", () => {
    expect(atCursor("crew=a&cursor=old", "new").toString()).toBe("crew=a&cursor=new");
  });
});

describe("rangeProblem", () => {
  it("refuses only a from after to", () => {
    expect(rangeProblem("2026-02-01", "2026-01-01")).toBe(
      "“From” is after “To”: pick an earlier start.",
    );
    expect(rangeProblem("2026-01-01", "2026-01-01")).toBe("");
    expect(rangeProblem("2026-02-01", "")).toBe("");
  });
  it("bounds each picker by the other end, and not at all when it is empty", () => {
    const range = { from: "2026-01-01", to: "2026-02-01" };
    expect(dateBounds("from", range)).toEqual({ max: "2026-02-01" });
    expect(dateBounds("to", range)).toEqual({ min: "2026-01-01" });
    expect(dateBounds("to", { from: "", to: "" })).toEqual({ min: undefined });
  });
});

describe("selection", () => {
  const runs = [{ id: "a" }, { id: "b" }];
  it("toggles one id without changing the set it was given", () => {
    const before = new Set(["a"]);
    expect([...toggled(before, "b")]).toEqual(["a", "b"]);
    expect([...toggled(before, "a")]).toEqual([]);
    expect([...before]).toEqual(["a"]);
  });
  it("says whether all or some runs on the page are selected", () => {
    expect(pageSelection(runs, new Set(["a", "b"]))).toEqual({ all: true, some: true });
    expect(pageSelection(runs, new Set(["b"]))).toEqual({ all: false, some: true });
    expect(pageSelection([], new Set())).toEqual({ all: false, some: false });
  });
});
