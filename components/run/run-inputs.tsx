import type { ReactNode } from "react";

/** The inputs the run was started with, in the crew's order; then `children` (its lineage). */
export function RunInputs({
  inputs,
  children,
}: {
  inputs: Record<string, string | number | boolean | null> | null;
  children?: ReactNode;
}) {
  const entries = Object.entries(inputs ?? {});
  return (
    <div className="grid gap-3">
      <div className="grid gap-0.5">
        <h2 id="detail-title" className="m-0 font-semibold text-base">
          Inputs
        </h2>
        <p className="text-muted-foreground text-xs">Select a task or step to see what it did.</p>
      </div>
      {entries.length ? (
        <dl className="grid gap-2 text-sm">
          {entries.map(([k, v]) => (
            <div key={k} className="grid gap-0.5">
              <dt className="text-muted-foreground text-xs">{k}</dt>
              <dd className="whitespace-pre-wrap break-words">
                {v === null ? "—" : typeof v === "boolean" ? (v ? "Yes" : "No") : String(v)}
              </dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="text-muted-foreground text-sm">This run had no inputs.</p>
      )}
      {children}
    </div>
  );
}
