import http from "node:http";
import type { AddressInfo } from "node:net";
import { verify } from "@/lib/webhooks/signing";
import type { Json } from "./api";

export const RECEIVER_HOST = "127.0.0.2"; // inside the test server's WEBHOOK_ALLOWED_NETWORKS
export const TEST_WEBHOOK_SECRET = "whsec_dGVzdC13ZWJob29rLXNlY3JldC0wMTIzNDU2Nzg5";

export type Received = {
  id: string;
  path: string;
  body: Json;
  at: number;
  validSignature: boolean;
  attemptHeaders: Record<string, string>;
};
export type Behaviour = (req: { id: string; path: string; nth: number }) => {
  status: number;
  headers?: http.OutgoingHttpHeaders;
};

/**
 * A webhook receiver on loopback: records every request (with whether its Standard Webhooks
 * signature verifies) and answers what `behaviour` says — 200 unless told otherwise. It can
 * start "down" (not listening) and come up later on the same port.
 */
export async function startReceiver({
  behaviour = () => ({ status: 200 }),
  down = false,
}: {
  behaviour?: Behaviour;
  down?: boolean;
} = {}) {
  const received: Received[] = [];
  const seen = new Map<string, number>();
  let current = behaviour;
  const server = http.createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const id = String(req.headers["webhook-id"] ?? "");
    const nth = (seen.get(id) ?? 0) + 1;
    seen.set(id, nth);
    const headers = new Headers(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
    received.push({
      id,
      path: req.url ?? "",
      body: JSON.parse(raw),
      at: Date.now(),
      validSignature: verify({ secret: TEST_WEBHOOK_SECRET, headers, body: raw }).ok,
      attemptHeaders: Object.fromEntries(headers),
    });
    const answer = current({ id, path: req.url ?? "", nth });
    res.writeHead(answer.status, answer.headers).end();
  });
  // Take a free port now, so the URL is known even while the receiver is "down".
  await new Promise<void>((resolve) => server.listen(0, RECEIVER_HOST, resolve));
  const { port } = server.address() as AddressInfo;
  if (down) await new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    url: (path: string) => `http://${RECEIVER_HOST}:${port}${path}`,
    received,
    /** Requests that returned 2xx, one per webhook-id. */
    delivered: () => {
      const ok = new Map<string, Received>();
      for (const r of received) if (!ok.has(r.id)) ok.set(r.id, r);
      return [...ok.values()];
    },
    setBehaviour: (b: Behaviour) => {
      current = b;
    },
    up: () => new Promise<void>((resolve) => server.listen(port, RECEIVER_HOST, resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
