import { describe, expect, it } from "vitest";
import { groupsOf, matchingGroups, reach, toggled } from "@/components/review/assignee-options";

// Whom a review can go to, as the assignee picker lists and searches them.
const data = {
  people: [
    { email: "ana@x.io", name: "Ana", role: "reviewer" },
    { email: "bo@x.io", name: null, role: "admin" },
  ],
  roles: [{ name: "legal", reviewers: 0 }],
  teams: [
    { name: "ops", reviewers: 1 },
    { name: "sales", reviewers: 4 },
  ],
};

describe("reach", () => {
  it("says how many reviewers a role or team reaches", () => {
    expect(reach(0)).toBe("no one");
    expect(reach(1)).toBe("1 person");
    expect(reach(4)).toBe("4 people");
  });
});

describe("groupsOf", () => {
  it("lists people, roles and teams with their details", () => {
    expect(groupsOf(data)).toEqual([
      {
        name: "People",
        options: [
          { value: "ana@x.io", label: "Ana", detail: "ana@x.io · reviewer" },
          { value: "bo@x.io", label: "bo@x.io", detail: "admin" },
        ],
      },
      { name: "Roles", options: [{ value: "legal", label: "legal", detail: "no one" }] },
      {
        name: "Teams",
        options: [
          { value: "ops", label: "ops", detail: "1 person" },
          { value: "sales", label: "sales", detail: "4 people" },
        ],
      },
    ]);
  });
});

describe("matchingGroups", () => {
  const groups = groupsOf(data);
  it("keeps every group with options when nothing is searched", () => {
    expect(matchingGroups(groups, "")).toEqual(groups);
  });
  it("matches the value or the label and drops empty groups", () => {
    expect(matchingGroups(groups, "ana").map((g) => g.name)).toEqual(["People"]);
    expect(matchingGroups(groups, "bo@").flatMap((g) => g.options.map((o) => o.value))).toEqual([
      "bo@x.io",
    ]);
    expect(matchingGroups(groups, "nobody")).toEqual([]);
  });
  it("drops a group with no options at all", () => {
    expect(matchingGroups(groupsOf({ ...data, roles: [] }), "").map((g) => g.name)).toEqual([
      "People",
      "Teams",
    ]);
  });
});

describe("toggled", () => {
  it("adds a new one at the end and takes out a chosen one", () => {
    expect(toggled(["a"], "b")).toEqual(["a", "b"]);
    expect(toggled(["a", "b"], "a")).toEqual(["b"]);
  });
});
