import { describe, expect, it } from "vitest";
import { emailParts } from "@/components/settings/user-columns";

// A long e-mail in the people table wraps before its "@" and dots, never inside a word.
describe("emailParts", () => {
  it("cuts before the @ and each dot", () => {
    expect(emailParts("rosa.luz@example.co.uk")).toEqual([
      "rosa",
      ".luz",
      "@example",
      ".co",
      ".uk",
    ]);
  });
  it("keeps an address with nothing to cut whole", () => {
    expect(emailParts("root")).toEqual(["root"]);
  });
  it("loses no character", () => {
    const email = "a.b@c.d";
    expect(emailParts(email).join("")).toBe(email);
  });
});
