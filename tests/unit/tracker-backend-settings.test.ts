import { describe, expect, it } from "vitest";
import {
  keyPlaceholder,
  shownBackend,
  teamList,
  testChoice,
  trackerName,
} from "@/components/settings/tracker-backend";

// What the issue tracker section decides: which backend is on screen, what a test asks for,
// the key field's placeholder, and how a passed test reads.
const view = {
  backend: "linear" as const,
  source: "settings" as const,
  linear_key_saved: true,
  linear_key_hint: "…abcd",
};

describe("shownBackend", () => {
  it("shows the one picked over the saved one", () => {
    expect(shownBackend("embedded", view)).toBe("embedded");
  });
  it("shows the saved one when none is picked", () => {
    expect(shownBackend(null, view)).toBe("linear");
  });
  it("shows the embedded tracker before the settings load", () => {
    expect(shownBackend(null, undefined)).toBe("embedded");
  });
});

describe("testChoice", () => {
  it("asks for nothing when the environment sets the tracker", () => {
    expect(testChoice(true, "linear", "lin_api_x")).toBeUndefined();
  });
  it("tests a typed key", () => {
    expect(testChoice(false, "linear", "lin_api_x")).toEqual({
      backend: "linear",
      linearKey: "lin_api_x",
    });
  });
  it("tests the saved key when none is typed", () => {
    expect(testChoice(false, "linear", "")).toEqual({ backend: "linear", linearKey: undefined });
  });
});

describe("keyPlaceholder", () => {
  it("gives the saved key's hint", () => {
    expect(keyPlaceholder(view)).toBe("Saved (…abcd); type to replace");
  });
  it("shows what a key looks like when none is saved", () => {
    expect(keyPlaceholder({ ...view, linear_key_saved: false, linear_key_hint: null })).toBe(
      "lin_api_…",
    );
  });
});

describe("trackerName and teamList", () => {
  it("names Linear and lists its teams", () => {
    const result = { ok: true, backend: "linear", teams: ["Eng", "Ops"] };
    expect(trackerName(result)).toBe("Linear");
    expect(teamList(result)).toBe("Eng, Ops");
  });
  it("names the embedded tracker and says (none) without teams", () => {
    expect(trackerName({ ok: true, backend: "embedded" })).toBe("embedded tracker");
    expect(teamList({ ok: true, backend: "embedded" })).toBe("(none)");
    expect(teamList({ ok: true, backend: "embedded", teams: [] })).toBe("(none)");
  });
});
