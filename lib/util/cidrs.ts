import ipaddr from "ipaddr.js";

export type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * A comma-separated list of CIDRs from a setting (`variable` names it in the error), e.g.
 * "127.0.0.0/8,10.1.0.0/16"; empty entries are ignored.
 */
export function parseCidrs(raw: string, variable: string): Cidr[] {
  return raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((c) => {
      try {
        return ipaddr.parseCIDR(c);
      } catch {
        throw new Error(`${variable}: '${c}' is not a CIDR such as 127.0.0.0/8`);
      }
    });
}
