import ipaddr from "ipaddr.js";
import { env } from "@/lib/config/env";
import { type Cidr, parseCidrs } from "@/lib/util/cidrs";

let cache: { raw: string; cidrs: Cidr[] } | undefined;

/** Whether a client address is in METRICS_ALLOWED_NETWORKS (scrapes from there need no token). */
export function inMetricsNetworks(address: string, raw = env().METRICS_ALLOWED_NETWORKS): boolean {
  if (cache?.raw !== raw) {
    cache = { raw, cidrs: parseCidrs(raw, "METRICS_ALLOWED_NETWORKS") };
  }
  if (!cache.cidrs.length || !ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip instanceof ipaddr.IPv6 && ip.isIPv4MappedAddress()) ip = ip.toIPv4Address();
  return cache.cidrs.some(([net, bits]) => ip.kind() === net.kind() && ip.match(net, bits));
}
