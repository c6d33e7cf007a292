import http from "node:http";
import type { AddressInfo } from "node:net";

// A loopback OTLP/HTTP trace receiver that decodes what it is sent (OTLP's JSON encoding, which
// the `exporter-trace-otlp-http` exporter uses) into flat spans.

export type ReceivedSpan = {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Record<string, unknown>;
  status: { code?: number; message?: string };
  resource: Record<string, unknown>;
};

type AnyValue = {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: AnyValue[] };
};
type KeyValue = { key: string; value: AnyValue };

const decodeValue = (v: AnyValue): unknown => {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(decodeValue);
  return undefined;
};
const attrs = (list: KeyValue[] = []) =>
  Object.fromEntries(list.map((a) => [a.key, decodeValue(a.value)]));

// OTLP/JSON writes ids as hex (the spec's exception to proto3's JSON mapping); accept base64 too.
const hexId = (id: string | undefined, bytes: number) => {
  if (!id) return "";
  if (new RegExp(`^[0-9a-f]{${bytes * 2}}$`, "i").test(id)) return id.toLowerCase();
  return Buffer.from(id, "base64").toString("hex");
};

export async function startOtlpReceiver() {
  const spans: ReceivedSpan[] = [];
  const requests: { path: string; headers: http.IncomingHttpHeaders }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      requests.push({ path: req.url ?? "", headers: req.headers });
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        for (const rs of body.resourceSpans ?? [])
          for (const ss of rs.scopeSpans ?? [])
            for (const s of ss.spans ?? [])
              spans.push({
                traceId: hexId(s.traceId, 16),
                spanId: hexId(s.spanId, 8),
                parentSpanId: hexId(s.parentSpanId, 8),
                name: s.name,
                kind: s.kind,
                startTimeUnixNano: String(s.startTimeUnixNano),
                endTimeUnixNano: String(s.endTimeUnixNano),
                attributes: attrs(s.attributes),
                status: s.status ?? {},
                resource: attrs(rs.resource?.attributes),
              });
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
