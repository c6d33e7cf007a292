// One duration format everywhere: "850 ms", "4.2 s", "3 m 05 s", "2 h 14 m", "3 d 4 h".
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return "—";
  const s = Math.max(0, seconds);
  if (s < 1) return `${Math.round(s * 1000)} ms`;
  if (s < 60) return `${s < 10 ? s.toFixed(1) : Math.round(s)} s`;
  const total = Math.round(s);
  const d = Math.floor(total / 86_400);
  const h = Math.floor((total % 86_400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = total % 60;
  if (d) return `${d} d ${h} h`;
  if (h) return `${h} h ${m} m`;
  return `${m} m ${String(sec).padStart(2, "0")} s`;
}

/** Seconds between two ISO instants (to defaults to now, for something still going on). */
export function secondsBetween(from: string | null, to: string | null, now = Date.now()) {
  if (!from) return null;
  return ((to ? Date.parse(to) : now) - Date.parse(from)) / 1000;
}
