import { describe, expect, it } from "vitest";
import { connectionState, oauthReturn } from "@/components/settings/linear-oauth";

// What the Linear OAuth section reads: the connection's state, and the query Linear's consent
// page sends the browser back with.
const connection = {
  status: "connected" as const,
  workspace: "Acme",
  connected_by: "ada",
  connected_at: "2026-01-01T00:00:00Z",
  scopes: ["read", "write"],
};

describe("connectionState", () => {
  it("is none before loading and without a connection", () => {
    expect(connectionState(undefined)).toBe("none");
    expect(connectionState(null)).toBe("none");
  });
  it("is the connection's status", () => {
    expect(connectionState(connection)).toBe("connected");
    expect(connectionState({ ...connection, status: "revoked" })).toBe("revoked");
  });
});

describe("oauthReturn", () => {
  const from = (query: string) => oauthReturn(new URLSearchParams(query));
  it("knows a connection just made", () => {
    expect(from("linear=connected")).toEqual({ justConnected: true, failure: null });
  });
  it("gives the error Linear sent back", () => {
    expect(from("linear_error=access_denied")).toEqual({
      justConnected: false,
      failure: "access_denied",
    });
  });
  it("is nothing on an ordinary visit", () => {
    expect(from("tab=integrations")).toEqual({ justConnected: false, failure: null });
    expect(from("linear=other").justConnected).toBe(false);
  });
});
