import { describe, expect, it } from "vitest";
import { DeploymentPatchSchema } from "@/lib/deployments/store";
import { redactUrl } from "@/lib/webhooks/deliveries";

describe("delivery URLs never show their secrets", () => {
  it.each([
    ["https://hooks.example.com/in?t=abc123", "https://hooks.example.com/in?t=REDACTED"],
    ["https://x.example/h?token=s3cret&crew=a", "https://x.example/h?token=REDACTED&crew=a"],
    [
      "https://x.example/h?key=k&secret=s&sig=g",
      "https://x.example/h?key=REDACTED&secret=REDACTED&sig=REDACTED",
    ],
    ["https://x.example/h?api_key=k", "https://x.example/h?api_key=REDACTED"],
    ["https://user:pass@x.example/h", "https://REDACTED@x.example/h"],
    ["https://x.example/h#access_token=abc", "https://x.example/h#access_token=REDACTED"],
    ["https://x.example/plain?crew=a", "https://x.example/plain?crew=a"],
  ])("%s", (raw, expected) => {
    expect(redactUrl(raw)).toBe(expected);
    expect(redactUrl(raw)).not.toMatch(/abc123|s3cret|pass@/);
  });
});

describe("PATCH /api/deployments/<slug> body", () => {
  it("keeps the saved token when it is blank", () => {
    expect(DeploymentPatchSchema.parse({ name: "A", token: "" })).toEqual({ name: "A" });
    expect(DeploymentPatchSchema.parse({ token: "  " }).token).toBeUndefined();
  });
  it("applies the create rules to base_url", () => {
    expect(DeploymentPatchSchema.safeParse({ base_url: "ftp://x.example" }).success).toBe(false);
    expect(DeploymentPatchSchema.safeParse({ base_url: "not a url" }).success).toBe(false);
    expect(
      DeploymentPatchSchema.parse({ base_url: "https://x.example/api/crews/a/" }).base_url,
    ).toBe("https://x.example/api/crews/a");
  });
});
