import { z } from "zod";
import { unseal } from "@/lib/config/encryption";
import type {
  AppliedEvent,
  ExecutionRow,
  ProtocolPush,
  PushProtocol,
  WebhookUrls,
} from "@/lib/run-model/types";

// A protocol's push notifications (A2A's): the endpoints a run keeps under the protocol's name in
// its `webhooks`, sent what a batch of its events makes through this outbox (signed, retried,
// logged like every webhook). What the bodies say is the protocol's to write: its layer supplies
// a renderer, which each process that writes runs wires at start-up (lib/server, the worker
// script). A run with pushes of a protocol no renderer is wired for fails its write rather than
// drop a client's updates without a word.

const PUSH_PROTOCOLS: readonly PushProtocol[] = ["a2a"];

export type PushRenderer = {
  /** Whether a batch sends anything: a test cheap enough to run before every write. */
  moves: (events: AppliedEvent[]) => boolean;
  /** The bodies a batch sends each endpoint, in order; stored as they are sent. */
  payloads: (row: ExecutionRow, events: AppliedEvent[]) => object[];
};

declare global {
  var __crewdeckPushRenderers: Map<PushProtocol, PushRenderer> | undefined;
}
// One map per process: the web server's routes and its start-up hook are bundled apart.
globalThis.__crewdeckPushRenderers ??= new Map();
const renderers = globalThis.__crewdeckPushRenderers;

export function wirePushRenderer(protocol: PushProtocol, renderer: PushRenderer) {
  renderers.set(protocol, renderer);
}

export function pushRenderer(protocol: PushProtocol): PushRenderer {
  const renderer = renderers.get(protocol);
  if (!renderer)
    throw new Error(
      `This run has ${protocol} push endpoints, but no ${protocol} push renderer is wired in this process (lib/server wires them at start-up).`,
    );
  return renderer;
}

/** The protocols a run has push endpoints of, each with its endpoints. */
export const runPushes = (urls: WebhookUrls): [PushProtocol, ProtocolPush[]][] =>
  PUSH_PROTOCOLS.flatMap((p) => {
    const pushes = urls[p];
    return pushes?.length ? [[p, pushes]] : [];
  });

/** Whether a batch sends anything to the run's push endpoints. */
export const pushesAny = (urls: WebhookUrls, events: AppliedEvent[]) =>
  runPushes(urls).some(([protocol]) => pushRenderer(protocol).moves(events));

export const isPushKind = (kind: string) => PUSH_PROTOCOLS.some((p) => p === kind);

const SealedHeaders = z.record(z.string(), z.string());

/** The headers a push delivery carries (the client's credentials, its token), unsealed to send. */
export const pushHeaders = (sealed: string | null | undefined): Record<string, string> =>
  sealed ? SealedHeaders.parse(JSON.parse(unseal(sealed))) : {};
