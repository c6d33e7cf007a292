import dns from "node:dns";
import net from "node:net";
import { RefusedUrlError, refusalReason, resolvesTo } from "@/lib/webhooks/ssrf";

/**
 * The address to connect to for `host`, checked by the webhooks' SSRF guard (the same rules and
 * WEBHOOK_ALLOWED_NETWORKS): every address the name resolves to must be allowed, and the one
 * connected to is the one checked, so a name re-pointed in between cannot slip through.
 */
export async function checkedSmtpAddress(host: string): Promise<string> {
  const bare = host.replace(/^\[(.*)\]$/, "$1");
  if (net.isIP(bare)) {
    const reason = refusalReason(bare);
    if (reason) throw new RefusedUrlError(reason);
    return bare;
  }
  const addresses = await dns.promises.lookup(bare, { all: true });
  for (const a of addresses) {
    const reason = refusalReason(a.address);
    if (reason) throw new RefusedUrlError(resolvesTo(bare, reason));
  }
  const first = addresses[0];
  if (!first) throw new Error(`${bare} has no address`);
  return first.address;
}
