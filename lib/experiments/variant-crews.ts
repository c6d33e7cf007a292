import type { CrewDef } from "@/lib/crew/schema";
import { StoredCrewSchema } from "@/lib/crew/stored-crew";

// An experiment's variants, pinned when it was created: their stored definitions read once, and
// looked up by name at each step. A definition that is not a crew, or a cell naming a variant
// with none, is said plainly (the runner logs it once) rather than failing deep in a step.

/** Each variant's stored definition (its JSON text), by name. */
export function pinnedCrews(rows: { name: string; definition: string }[]): Map<string, CrewDef> {
  return new Map(
    rows.map((r) => {
      const crew = StoredCrewSchema.safeParse(JSON.parse(r.definition));
      if (!crew.success)
        throw new Error(
          `Variant '${r.name}': its stored definition is ${crew.error.issues[0]?.message ?? "not a crew definition"}`,
        );
      return [r.name, crew.data];
    }),
  );
}

/** The pinned definition of `variant`; an error naming the variants there are when it has none. */
export function variantCrew(defs: Map<string, CrewDef>, variant: string): CrewDef {
  const crew = defs.get(variant);
  if (!crew)
    throw new Error(
      `No stored definition of variant '${variant}' (the experiment's variants: ${[...defs.keys()].join(", ") || "none"}).`,
    );
  return crew;
}
