import type { Variant } from "@/lib/api/client";

/** "writer: llm, goal · write: description · process hierarchical" */
export function changesSummary(changes: Variant["changes"]): string {
  const parts = [
    ...Object.entries(changes.agents ?? {}).map(([id, c]) => `${id}: ${Object.keys(c).join(", ")}`),
    ...Object.entries(changes.tasks ?? {}).map(([id, c]) => `${id}: ${Object.keys(c).join(", ")}`),
    ...(changes.process ? [`process ${changes.process}`] : []),
    ...(changes.manager_llm ? [`manager ${changes.manager_llm}`] : []),
  ];
  return parts.length ? parts.join(" · ") : "no changes: the crew as it is";
}
