import { describe, expect, it } from "vitest";
import { classifySsoError, isSsoErrorCode } from "@/lib/auth/sso-errors";
import { groupsFrom, roleForGroups } from "@/lib/auth/sso-roles";
import { parseRoleMap } from "@/lib/config/roles";

describe("OIDC_ROLE_MAP", () => {
  it("reads group=role pairs, the higher role winning for a group named twice", () => {
    const map = parseRoleMap(
      " crewdeck-admins=admin , crewdeck-reviewers=reviewer,ops=viewer,ops=operator",
    );
    expect([...map]).toEqual([
      ["crewdeck-admins", "admin"],
      ["crewdeck-reviewers", "reviewer"],
      ["ops", "operator"],
    ]);
  });
  it("allows '=' inside a group name (the last one splits)", () => {
    expect([...parseRoleMap("cn=admins=admin")]).toEqual([["cn=admins", "admin"]]);
  });
  it.each(["admins", "=admin", "admins=root", "admins=Admin"])("refuses %j", (raw) => {
    expect(() => parseRoleMap(raw)).toThrow(/OIDC_ROLE_MAP/);
  });
  it("is empty when unset", () => {
    expect(parseRoleMap("").size).toBe(0);
  });
});

describe("groups → role", () => {
  const map = parseRoleMap("crewdeck-admins=admin,crewdeck-reviewers=reviewer");
  it.each([
    [["crewdeck-reviewers"], "viewer", "reviewer"],
    [["crewdeck-reviewers", "crewdeck-admins"], "viewer", "admin"],
    [["somewhere-else"], "viewer", "viewer"],
    [[], "operator", "operator"],
    [["somewhere-else"], "none", null],
    [["crewdeck-reviewers"], "none", "reviewer"],
  ] as const)("%j with default %s → %s", (groups, fallback, role) => {
    expect(roleForGroups(groups, map, fallback)).toBe(role);
  });
  it("reads the claim as an array or a single string; absent is undefined", () => {
    expect(groupsFrom({ groups: ["a", 3, "b"] }, "groups")).toEqual(["a", "b"]);
    expect(groupsFrom({ roles: "a" }, "roles")).toEqual(["a"]);
    expect(groupsFrom({}, "groups")).toBeUndefined();
  });
});

describe("a failed callback's reason", () => {
  const wrap = (err: Error) =>
    Object.assign(new Error("callback"), { type: "CallbackRouteError", cause: { err } });
  it.each([
    [wrap(new Error('unexpected JWT "aud" (audience) claim value')), "sso-audience"],
    [wrap(new Error('unexpected ID Token "azp" (authorized party) claim value')), "sso-audience"],
    [
      Object.assign(new Error("state value could not be parsed"), { name: "InvalidCheck" }),
      "sso-state",
    ],
    [wrap(new Error('unexpected "state" response parameter value')), "sso-state"],
    [
      Object.assign(new Error("OAuth Provider returned an error"), { name: "OAuthCallbackError" }),
      "sso-denied",
    ],
    [wrap(new Error("fetch failed")), "sso-failed"],
    [undefined, "sso-failed"],
  ])("%s → %s", (error, code) => {
    expect(classifySsoError(error)).toBe(code);
    expect(isSsoErrorCode(code)).toBe(true);
  });
});
