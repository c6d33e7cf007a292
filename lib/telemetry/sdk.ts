import { AsyncLocalStorage } from "node:async_hooks";
import {
  DiagConsoleLogger,
  DiagLogLevel,
  diag,
  ROOT_CONTEXT,
  type Span,
  TraceFlags,
  trace,
} from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import {
  BatchSpanProcessor,
  type IdGenerator,
  NodeTracerProvider,
  RandomIdGenerator,
} from "@opentelemetry/sdk-trace-node";
import { env } from "@/lib/config/env";
import type { Tracing } from "./state";

// Loaded only when an OTLP endpoint is set (lib/telemetry/start.ts). Everything the exporter,
// the batch processor and the sampler read comes from the standard OTEL_* variables: endpoint,
// headers, timeout, compression, OTEL_BSP_*, OTEL_TRACES_SAMPLER(_ARG), OTEL_SERVICE_NAME,
// OTEL_RESOURCE_ATTRIBUTES.

/** Random ids, unless a span is being started with ids of its own (see Tracing.start). */
class ChosenIds implements IdGenerator {
  private random = new RandomIdGenerator();
  next: { traceId?: string; spanId?: string } = {};
  generateTraceId() {
    const id = this.next.traceId;
    this.next.traceId = undefined;
    return id ?? this.random.generateTraceId();
  }
  generateSpanId() {
    const id = this.next.spanId;
    this.next.spanId = undefined;
    return id ?? this.random.generateSpanId();
  }
}

const isLevelName = (name: string): name is keyof typeof DiagLogLevel => name in DiagLogLevel;

export function createTracing(): Tracing {
  // The SDK reports export failures through its diagnostics, silent unless OTEL_LOG_LEVEL asks.
  const level = process.env.OTEL_LOG_LEVEL?.toUpperCase();
  if (level && isLevelName(level))
    diag.setLogger(new DiagConsoleLogger(), { logLevel: DiagLogLevel[level] });
  const ids = new ChosenIds();
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over our default name.
  const resource = resourceFromAttributes({ "service.name": "crewdeck" }).merge(
    detectResources({ detectors: [envDetector] }),
  );
  const provider = new NodeTracerProvider({
    resource,
    idGenerator: ids,
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  // Not registered globally: Next.js's own spans stay where they were, and our context travels
  // in our own AsyncLocalStorage (Tracing.current).
  const tracer = provider.getTracer("crewdeck");
  const current = new AsyncLocalStorage<Span>();

  const start: Tracing["start"] = (name, { parent, traceId, spanId, ...options }) => {
    const within = parent ?? current.getStore();
    const context =
      within === undefined || within === "root"
        ? ROOT_CONTEXT
        : "spanContext" in within
          ? trace.setSpan(ROOT_CONTEXT, within)
          : within;
    ids.next = { traceId, spanId };
    try {
      return tracer.startSpan(name, options, context);
    } finally {
      ids.next = {};
    }
  };

  // A parent made elsewhere is sampled as its trace's root would be: ask the sampler with a
  // throw-away root span of that trace (never ended, so never exported).
  const sampled = new Map<string, boolean>();
  const isSampled = (traceId: string) => {
    let yes = sampled.get(traceId);
    if (yes === undefined) {
      yes = start("sampling", { traceId, parent: "root" }).isRecording();
      if (sampled.size > 10_000) sampled.clear();
      sampled.set(traceId, yes);
    }
    return yes;
  };

  return {
    start,
    remoteParent: (traceId, spanId) =>
      trace.setSpanContext(ROOT_CONTEXT, {
        traceId,
        spanId,
        isRemote: true,
        traceFlags: isSampled(traceId) ? TraceFlags.SAMPLED : TraceFlags.NONE,
      }),
    current,
    captureContent: env().CREWDECK_OTEL_CAPTURE_CONTENT,
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}
