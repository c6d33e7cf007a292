import { describe, expect, it } from "vitest";
import { errorMessage } from "@/lib/errors";

// Catch blocks say what went wrong through one helper, whatever was thrown.
describe("errorMessage", () => {
  it.each([
    ["an Error", new Error("disk full"), "disk full"],
    ["a subclass", new TypeError("not a function"), "not a function"],
    ["an error-like object", { message: "from elsewhere", code: "E1" }, "from elsewhere"],
    ["a thrown string", "plain words", "plain words"],
    ["a number", 42, "42"],
    ["null", null, "null"],
    ["undefined", undefined, "undefined"],
    ["an object whose message is no string", { message: 7 }, "[object Object]"],
  ])("%s", (_label, thrown, said) => {
    expect(errorMessage(thrown)).toBe(said);
  });
});
