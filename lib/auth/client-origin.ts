import type { NextRequest } from "next/server";
import { env } from "@/lib/config/env";

/**
 * next-auth builds its URLs — the OpenID Connect redirect_uri among them — from request.url,
 * which Next fills with its own idea of the host (a loopback address becomes "localhost"), while
 * its server actions (the sign-in button) use the Host header. The provider must see the
 * address people actually use, as next-auth's server actions already do: the Host header (the
 * X-Forwarded-Host/-Proto of the proxy in front when TRUST_PROXY is set).
 */
export function withClientOrigin(handler: (req: NextRequest) => Promise<Response>) {
  return (req: NextRequest) => {
    const trust = env().TRUST_PROXY;
    const first = (name: string) => req.headers.get(name)?.split(",")[0]?.trim() || undefined;
    const host = (trust && first("x-forwarded-host")) || first("host");
    const proto = (trust && first("x-forwarded-proto")) || req.nextUrl.protocol.replace(":", "");
    if (!host || !/^[\w.-]+(:\d+)?$|^\[[\d:a-f.]+\](:\d+)?$/i.test(host)) return handler(req);
    const origin = `${proto === "https" ? "https" : "http"}://${host}`;
    // (req.nextUrl already reads the Host header; req.url, which next-auth reads, does not.)
    const url = new URL(req.url);
    if (origin === url.origin) return handler(req);
    // A plain Request: NextRequest (NextURL) turns 127.0.0.1 and [::1] back into localhost. next-auth
    // reads only the standard fields (nextUrl only when AUTH_URL is set, which Crewdeck does not use).
    const body = ["GET", "HEAD"].includes(req.method) ? undefined : req.body;
    const init = { method: req.method, headers: req.headers, body, duplex: "half" as const };
    const plain = new Request(`${origin}${url.pathname}${url.search}`, init);
    // next-auth types its handlers' argument as NextRequest but reads only Request's fields.
    return handler(plain as NextRequest);
  };
}
