import { z } from "zod";
import { errorMessage } from "@/lib/errors";
import type { SsoConfig } from "./sso-config";

// The identity provider's userinfo endpoint: where a person's current groups are read, at sign-in
// and again on later requests (lib/auth/sso-session.ts), with the access token of their sign-in.

const Discovery = z.object({ issuer: z.string(), userinfo_endpoint: z.url() });
const Claims = z.record(z.string(), z.unknown());

let discovered: { issuer: string; endpoint: Promise<string> } | undefined;

async function userinfoEndpoint(config: SsoConfig): Promise<string> {
  if (discovered?.issuer !== config.issuer) {
    const endpoint = (async () => {
      const base = config.issuer.endsWith("/") ? config.issuer : `${config.issuer}/`;
      const res = await fetch(new URL(".well-known/openid-configuration", base), {
        signal: AbortSignal.timeout(10_000),
      });
      if (!res.ok) throw new Error(`discovery answered ${res.status}`);
      return Discovery.parse(await res.json()).userinfo_endpoint;
    })();
    discovered = { issuer: config.issuer, endpoint };
    // A failed discovery is tried again next time rather than remembered.
    endpoint.catch(() => {
      if (discovered?.endpoint === endpoint) discovered = undefined;
    });
  }
  return discovered.endpoint;
}

export type UserinfoResult =
  | { kind: "ok"; claims: Record<string, unknown> }
  /** The provider no longer accepts the token (expired, revoked, the person removed). */
  | { kind: "refused"; status: number }
  /** The provider could not be asked (down, slow, malformed answer): nothing is known. */
  | { kind: "unavailable"; reason: string };

export async function fetchUserinfo(
  config: SsoConfig,
  accessToken: string,
  subject: string,
): Promise<UserinfoResult> {
  try {
    const res = await fetch(await userinfoEndpoint(config), {
      headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" },
      signal: AbortSignal.timeout(10_000),
    });
    if (res.status === 401 || res.status === 403) return { kind: "refused", status: res.status };
    if (!res.ok) return { kind: "unavailable", reason: `userinfo answered ${res.status}` };
    const claims = Claims.parse(await res.json());
    // OpenID Connect Core 5.3.2: a userinfo answer for someone else must not be used.
    if (claims.sub !== subject) return { kind: "refused", status: res.status };
    return { kind: "ok", claims };
  } catch (err) {
    return { kind: "unavailable", reason: errorMessage(err) };
  }
}
