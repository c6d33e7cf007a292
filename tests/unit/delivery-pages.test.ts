import { describe, expect, it } from "vitest";
import { FIRST_PAGE, hasPages, newer, older } from "@/components/settings/delivery-pages";

// The deliveries section pages by cursor: Older pushes the next page's cursor, Newer pops one,
// and the page buttons show only when there is another page.
describe("older and newer", () => {
  it("goes to an older page and back", () => {
    const second = older(FIRST_PAGE, 120);
    expect(second).toEqual([undefined, 120]);
    expect(older(second, 80)).toEqual([undefined, 120, 80]);
    expect(newer(second)).toEqual([undefined]);
  });
  it("stays put when there is no older page", () => {
    const second = [undefined, 120];
    expect(older(second, null)).toBe(second);
  });
  it("leaves the cursors it was given as they were", () => {
    const first = [undefined];
    older(first, 5);
    newer(first);
    expect(first).toEqual([undefined]);
  });
});

describe("hasPages", () => {
  it("is false on the only page", () => {
    expect(hasPages(1, null)).toBe(false);
  });
  it("is true when there is an older page", () => {
    expect(hasPages(1, 40)).toBe(true);
  });
  it("is true on a later page, even the last", () => {
    expect(hasPages(2, null)).toBe(true);
  });
});
