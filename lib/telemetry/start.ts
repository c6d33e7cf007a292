import { errorMessage } from "@/lib/errors";
import { slot } from "./state";

/** Whether the standard variables ask for traces: an OTLP endpoint, and not switched off. */
export function tracingWanted(e: Record<string, string | undefined> = process.env) {
  if (e.OTEL_SDK_DISABLED === "true") return false;
  if ((e.OTEL_TRACES_EXPORTER ?? "otlp").split(",").every((x) => x.trim() === "none")) return false;
  return !!(e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || e.OTEL_EXPORTER_OTLP_ENDPOINT);
}

/**
 * Turns tracing on when OTEL_EXPORTER_OTLP_ENDPOINT (or _TRACES_ENDPOINT) is set. Otherwise
 * nothing of OpenTelemetry is loaded: the SDK is imported here, lazily, and only then.
 */
export async function startTelemetry(log: (msg: string) => void = console.log) {
  const s = slot();
  if (s.tracing || !tracingWanted()) return;
  s.starting ??= import("./sdk")
    .then(({ createTracing }) => {
      s.tracing = createTracing();
      log("[crewdeck] OpenTelemetry: exporting traces over OTLP/HTTP");
    })
    .catch((err) => log(`[crewdeck] OpenTelemetry could not start: ${errorMessage(err)}`));
  await s.starting;
}

/** Sends the spans still buffered and stops exporting (on shutdown). */
export async function stopTelemetry() {
  const s = slot();
  const t = s.tracing;
  s.tracing = undefined;
  s.starting = undefined;
  await t?.shutdown().catch(() => {});
}
