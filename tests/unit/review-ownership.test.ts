import { describe, expect, it } from "vitest";
import { assigneeLabel } from "@/components/review/assignee-label";

// A review's assignees as the review header shows them: people by e-mail, groups said which.
describe("assigneeLabel", () => {
  it("shows a person as their e-mail", () => {
    expect(assigneeLabel("ada@example.com")).toBe("ada@example.com");
  });
  it("says whether a group is a role or a team", () => {
    expect(assigneeLabel("operator")).toBe("operator (role)");
    expect(assigneeLabel("platform")).toBe("platform (team)");
  });
});
