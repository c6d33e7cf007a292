// Whether a state-changing request comes from the dashboard's own origin. X-Forwarded-Host is
// whatever the client wrote unless a proxy in front sets it: believed only when the operator says
// there is one (TRUST_PROXY), else a cross-site page could name itself.

/** The host the client addressed: the proxy's X-Forwarded-Host with TRUST_PROXY, else Host. */
function addressedHost(headers: Headers, trustProxy: boolean): string | null {
  const forwarded = trustProxy ? headers.get("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  return forwarded || headers.get("host");
}

function originIsHost(origin: string, host: string | null) {
  try {
    return new URL(origin).host === host;
  } catch {
    return false; // "null" (a sandboxed or opaque origin) or garbage
  }
}

/**
 * The API's rule for signed-in (cookie) requests: the browser's Sec-Fetch-Site when it sends one,
 * else the Origin header against the addressed host; neither is a refusal.
 */
export function sameOrigin(headers: Headers, trustProxy: boolean): boolean {
  const site = headers.get("sec-fetch-site");
  if (site) return site === "same-origin";
  const origin = headers.get("origin");
  return !!origin && originIsHost(origin, addressedHost(headers, trustProxy));
}

/**
 * Server actions (the sign-in form and the dashboard's forms): the API's rule, and an Origin that
 * is sent must match too — Next compares it itself and answers a mismatch with a 500.
 */
export function sameOriginAction(headers: Headers, trustProxy: boolean): boolean {
  const origin = headers.get("origin");
  if (origin !== null && !originIsHost(origin, addressedHost(headers, trustProxy))) return false;
  return sameOrigin(headers, trustProxy);
}
