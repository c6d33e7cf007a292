import type { CrewCatalog } from "./load-crews";

// The catalogue as the server log shows it: at start-up and after each reload.

/** One line per load error (✗) and warning (!), saying the file and key at fault. */
export function problemLines(catalog: CrewCatalog): string[] {
  return [
    ...catalog.errors.map(
      (err) =>
        `  ✗ ${err.slug}: ${err.file}${err.line ? `:${err.line}` : ""}${err.key ? ` [${err.key}]` : ""}: ${err.reason}`,
    ),
    ...catalog.warnings.map(
      (w) =>
        `  ! ${w.slug}: ${w.file}${w.line ? `:${w.line}` : ""}${w.key ? ` [${w.key}]` : ""}: ${w.message}`,
    ),
  ];
}

/** Every crew with its inputs, then the problems. */
export function describeCatalog(catalog: CrewCatalog): string {
  return [
    ...[...catalog.crews.values()].map(
      (c) => `  ${c.slug}   inputs: ${c.inputs.join(", ") || "(none)"}`,
    ),
    ...problemLines(catalog),
  ].join("\n");
}

/** A fingerprint of everything loaded: equal when a reload changed nothing. */
export function catalogFingerprint(catalog: CrewCatalog): string {
  return JSON.stringify([[...catalog.crews.entries()], catalog.errors, catalog.warnings]);
}
