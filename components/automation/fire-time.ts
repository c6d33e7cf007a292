/** "Mon 30 Nov 2026, 09:00" in `timezone` (the schedule's own), in the reader's language. */
export function fireTime(at: Date | string, timezone: string) {
  const date = typeof at === "string" ? new Date(at) : at;
  const options: Intl.DateTimeFormatOptions = {
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
  };
  try {
    return new Intl.DateTimeFormat(undefined, { ...options, timeZone: timezone }).format(date);
  } catch {
    // A zone this browser does not know (the server checks it): in UTC, said so.
    return new Intl.DateTimeFormat(undefined, { ...options, timeZone: "UTC" }).format(date);
  }
}
