import { describe, expect, it } from "vitest";
import { ssoClaim } from "@/lib/auth/sso-claim";
import { SSO_PROVIDER_ID } from "@/lib/auth/sso-config";

// What a single sign-on cookie keeps for re-confirming the person with the provider.

describe("ssoClaim", () => {
  const account = { provider: SSO_PROVIDER_ID, access_token: "at-1" };

  it("keeps the provider's subject and access token", () => {
    expect(ssoClaim(account, { sub: "sub-1" })).toEqual({ sub: "sub-1", at: "at-1" });
  });

  it("keeps nothing for another provider, or without a token or a subject", () => {
    expect(ssoClaim({ ...account, provider: "credentials" }, { sub: "sub-1" })).toBeUndefined();
    expect(ssoClaim({ provider: SSO_PROVIDER_ID }, { sub: "sub-1" })).toBeUndefined();
    expect(ssoClaim({ ...account, access_token: "" }, { sub: "sub-1" })).toBeUndefined();
    expect(ssoClaim(account, { sub: null })).toBeUndefined();
    expect(ssoClaim(account, undefined)).toBeUndefined();
    expect(ssoClaim(null, { sub: "sub-1" })).toBeUndefined();
  });
});
