import http from "node:http";
import { env } from "@/lib/config/env";

// Who is calling, for throttling sign-in by client address.
//
// `next start` gives route handlers and server actions no socket, only headers. Its server does
// fill in X-Forwarded-For from the socket — but only when the request has none
// (`req.headers['x-forwarded-for'] ??= socket.remoteAddress` in next/dist/server/base-server.js),
// so a client that sends its own X-Forwarded-For picks its "address" and would get a fresh throttle
// counter with every request. No header Next sets is reliable, so we set one: at start-up we wrap
// the HTTP server's `request` event and write the socket's address into PEER_HEADER, overwriting
// whatever a client sent under that name.
export const PEER_HEADER = "x-crewdeck-peer-address";

const INSTALLED = "__crewdeckPeer";

/** Makes every request to this process's HTTP servers carry the socket's address. Idempotent. */
export function installPeerAddressHeader() {
  const proto = http.Server.prototype;
  if (Reflect.get(proto, INSTALLED)) return;
  Reflect.set(proto, INSTALLED, true);
  const emit = proto.emit;
  function emitWithPeer(this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
    const req = args[0];
    if (event === "request" && req instanceof http.IncomingMessage)
      req.headers[PEER_HEADER] = req.socket?.remoteAddress ?? "";
    return Reflect.apply(emit, this, [event, ...args]);
  }
  // Set by reflection: one function cannot be typed as every overload of `emit`.
  Reflect.set(proto, "emit", emitWithPeer);
}

/**
 * The caller's address. With TRUST_PROXY, the last X-Forwarded-For entry — the one the proxy in
 * front of us appended (earlier entries are whatever the client claimed). Without it, the socket's.
 */
export function clientAddress(headers: Headers, trustProxy = env().TRUST_PROXY): string {
  if (trustProxy) {
    const last = headers.get("x-forwarded-for")?.split(",").at(-1)?.trim();
    if (last) return normalize(last);
  }
  const peer = headers.get(PEER_HEADER);
  if (peer) return normalize(peer);
  // Not served by our patched server (e.g. a test calling a handler directly): one shared bucket.
  return "unknown";
}

// "::ffff:127.0.0.1" and "127.0.0.1" are the same caller.
const normalize = (a: string) => a.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, "$1").toLowerCase();
