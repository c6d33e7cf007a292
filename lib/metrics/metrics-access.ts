import ipaddr from "ipaddr.js";
import { env } from "@/lib/config/env";

let cache: { raw: string; cidrs: [ipaddr.IPv4 | ipaddr.IPv6, number][] } | undefined;

/** Whether a client address is in METRICS_ALLOWED_NETWORKS (scrapes from there need no token). */
export function inMetricsNetworks(address: string, raw = env().METRICS_ALLOWED_NETWORKS): boolean {
  if (cache?.raw !== raw) {
    const cidrs = raw
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean)
      .map((c) => {
        try {
          return ipaddr.parseCIDR(c);
        } catch {
          throw new Error(`METRICS_ALLOWED_NETWORKS: '${c}' is not a CIDR such as 10.0.0.0/8`);
        }
      });
    cache = { raw, cidrs };
  }
  if (!cache.cidrs.length || !ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress())
    ip = (ip as ipaddr.IPv6).toIPv4Address();
  return cache.cidrs.some(([net, bits]) => ip.kind() === net.kind() && ip.match(net, bits));
}
