import dns from "node:dns";
import net from "node:net";
import ipaddr from "ipaddr.js";
import { env } from "@/lib/config/env";
import { errorCode } from "@/lib/errors";
import { type Cidr, parseCidrs } from "@/lib/util/cidrs";

// Webhook URLs come from API clients: without a guard they could make this server call its own
// loopback services, the cloud metadata endpoint, or the private network. Only public unicast
// addresses are allowed, unless an operator lists a network in WEBHOOK_ALLOWED_NETWORKS.
// Remote deployments (set by administrators) get the same guard with their own list,
// DEPLOYMENT_ALLOWED_NETWORKS, as a deployment on the private network is a normal thing to want.
export class RefusedUrlError extends Error {}

export type Allowlist =
  | "WEBHOOK_ALLOWED_NETWORKS"
  | "DEPLOYMENT_ALLOWED_NETWORKS"
  | "TOOL_ALLOWED_NETWORKS";

const allowedCache = new Map<Allowlist, { raw: string; cidrs: Cidr[] }>();

function allowedNetworks(variable: Allowlist): Cidr[] {
  const raw = env()[variable];
  let cached = allowedCache.get(variable);
  if (cached?.raw !== raw) {
    cached = { raw, cidrs: parseCidrs(raw, variable) };
    allowedCache.set(variable, cached);
  }
  return cached.cidrs;
}

// IPv6 forms that carry an IPv4 address inside them. Each is refused (none is plain unicast),
// and the reason names the IPv4 address inside, so [::127.0.0.1] reads as what it is.
function embeddedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const b = ip.toByteArray();
  const v4 = (at: number, invert = false) =>
    new ipaddr.IPv4(b.slice(at, at + 4).map((x) => (invert ? ~x & 0xff : x)));
  const zero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  switch (ip.range()) {
    case "ipv4Mapped": // ::ffff:a.b.c.d
    case "rfc6145": // ::ffff:0:a.b.c.d
    case "rfc6052": // NAT64 64:ff9b::a.b.c.d
      return v4(12);
    case "6to4": // 2002:AABB:CCDD::/48
      return v4(2);
    case "teredo": // 2001:0:<server>:<flags>:<port>:<client, inverted>
      return v4(12, true);
  }
  // IPv4-compatible ::a.b.c.d (::/96, deprecated by RFC 4291); :: and ::1 are their own ranges.
  if (zero(0, 12) && !zero(12, 15)) return v4(12);
  return undefined;
}

/** Why an address may not be called, or undefined when it may. */
export function refusalReason(
  address: string,
  variable: Allowlist = "WEBHOOK_ALLOWED_NETWORKS",
): string | undefined {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address);
  } catch {
    return `'${address}' is not an IP address`;
  }
  const candidates: (ipaddr.IPv4 | ipaddr.IPv6)[] = [ip];
  const embedded = ip instanceof ipaddr.IPv6 ? embeddedIPv4(ip) : undefined;
  // Only the mapped form is the same socket address as its IPv4: an allowed network covers it.
  if (embedded && ip instanceof ipaddr.IPv6 && ip.isIPv4MappedAddress()) candidates.push(embedded);
  for (const [net, bits] of allowedNetworks(variable)) {
    if (candidates.some((c) => c.kind() === net.kind() && c.match(net, bits))) return undefined;
  }
  if (embedded) {
    const kind = ip.range() === "unicast" ? "ipv4Compatible" : ip.range();
    return `${address} is a ${kind} address embedding ${embedded} (${embedded.range()}); list its network in ${variable} to allow it`;
  }
  const range = ip.range();
  if (range === "unicast") return undefined;
  return `${address} is a ${range} address (list its network in ${variable} to allow it)`;
}

function hostOf(url: URL) {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

// What DNS answers for a name that does not exist (or has no address): a lasting answer, unlike
// EAI_AGAIN (the resolver could not be asked), which says nothing about the name.
export const UNRESOLVED_CODES = new Set(["ENOTFOUND", "ENODATA"]);

/**
 * Checks a webhook URL when it is given (kickoff, resume): scheme, and every address its host
 * resolves to now. A name that does not exist is refused (deliveries to it would be retried for
 * a day and a half for nothing); a resolver that cannot be reached is not the caller's fault, so
 * then the URL is accepted and each delivery checks again.
 */
export async function checkWebhookUrl(
  raw: string,
  variable: Allowlist = "WEBHOOK_ALLOWED_NETWORKS",
): Promise<void> {
  const url = new URL(raw);
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new RefusedUrlError("only http and https URLs are allowed");
  if (url.username || url.password)
    throw new RefusedUrlError(
      "credentials in the URL are not allowed; use a token in the path or query",
    );
  const host = hostOf(url);
  if (net.isIP(host)) {
    const reason = refusalReason(host, variable);
    if (reason) throw new RefusedUrlError(reason);
    return;
  }
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true });
  } catch (err) {
    if (UNRESOLVED_CODES.has(errorCode(err) ?? ""))
      throw new RefusedUrlError(`the host ${host} does not resolve (no such name in DNS)`);
    return;
  }
  for (const a of addresses) {
    const reason = refusalReason(a.address, variable);
    if (reason) throw new RefusedUrlError(resolvesTo(host, reason));
  }
}

/**
 * A `lookup` for http.request that refuses the connection if any address the name resolves to is
 * refused: checked at connect time, so a name re-pointed after the kickoff cannot slip through.
 */
export function guardedLookupFor(variable: Allowlist): net.LookupFunction {
  return (hostname, options, callback) => {
    // With an error, the address is not read: an empty list stands for none.
    dns.lookup(hostname, { ...options, all: true }, (err, list) => {
      if (err) return callback(err, []);
      for (const a of list) {
        const reason = refusalReason(a.address, variable);
        if (reason) return callback(new RefusedUrlError(resolvesTo(hostname, reason)), []);
      }
      if (options.all) return callback(null, list);
      const first = list[0];
      if (!first) return callback(new Error(`${hostname} has no address`), []);
      callback(null, first.address, first.family);
    });
  };
}

export const guardedLookup = guardedLookupFor("WEBHOOK_ALLOWED_NETWORKS");

/** For an IP literal the lookup is skipped by Node: check it before connecting. */
export function assertLiteralAllowed(url: URL, variable: Allowlist = "WEBHOOK_ALLOWED_NETWORKS") {
  const host = hostOf(url);
  if (net.isIP(host)) {
    const reason = refusalReason(host, variable);
    if (reason) throw new RefusedUrlError(reason);
  }
}

/** "localhost resolves to 127.0.0.1, a loopback address (…)": one sentence, not two glued. */
export const resolvesTo = (host: string, reason: string) =>
  `${host} resolves to ${reason.replace(/^(\S+) is (an?) /, "$1, $2 ")}`;
