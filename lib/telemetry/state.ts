import type { AsyncLocalStorage } from "node:async_hooks";
import type { Attributes, Context, Span, SpanKind, TimeInput } from "@opentelemetry/api";
import { processGlobal } from "@/lib/util/process-global";

// What the engine's hook points need once tracing is on. Kept on globalThis: the route bundle and
// the instrumentation bundle (see lib/metrics/registry.ts) are separate module instances, and a
// run stopped from the web side ends its trace as a worker's run does.
export type Tracing = {
  /** A span, optionally with the ids it must have (deterministic parents across processes). */
  start(
    name: string,
    options: {
      kind?: SpanKind;
      attributes?: Attributes;
      startTime?: TimeInput;
      /** Default: the current span (Tracing.current), else none; "root" for none at all. */
      parent?: Context | Span | "root";
      traceId?: string;
      spanId?: string;
    },
  ): Span;
  /** A context whose parent is a span known only by its ids (made by another process, or later). */
  remoteParent(traceId: string, spanId: string): Context;
  /** The span the current async work belongs to (an attempt, a tool call…), if any. */
  current: AsyncLocalStorage<Span>;
  captureContent: boolean;
  /** Sends what is buffered (tests, shutdown). */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
};

const SLOT = Symbol.for("crewdeck.tracing");
type Slot = { tracing?: Tracing; starting?: Promise<void> };

export function slot(): Slot {
  return processGlobal<Slot>(SLOT, () => ({}));
}

/** Tracing, when OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT turned it on at start; else undefined. */
export const tracing = (): Tracing | undefined => slot().tracing;

// The enums' values, so hook points need not load @opentelemetry/api (SpanKind, SpanStatusCode).
export const CLIENT: SpanKind = 2;
export const STATUS_ERROR = 2;
