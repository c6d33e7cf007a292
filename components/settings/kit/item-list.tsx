import type { ReactNode } from "react";

/** A bordered list of things a section configures (deployments, MCP servers, secrets). */
export function ItemList({ children }: { children: ReactNode }) {
  return <ul className="grid divide-y rounded-lg border">{children}</ul>;
}

/**
 * One configured thing: its name and badges, what it points at, what its last test said
 * (`children`), and its actions at the side (below it on a phone).
 */
export function Item({
  name,
  badges,
  detail,
  actions,
  children,
}: {
  name: ReactNode;
  badges?: ReactNode;
  detail: ReactNode;
  actions: ReactNode;
  children?: ReactNode;
}) {
  return (
    <li className="grid gap-2 p-3 sm:grid-cols-[1fr_auto] sm:items-start">
      <div className="grid min-w-0 gap-1">
        <div className="flex flex-wrap items-center gap-2">
          {name}
          {badges}
        </div>
        <code className="break-all font-mono text-muted-foreground text-xs">{detail}</code>
        {children}
      </div>
      <div className="flex flex-wrap gap-1 sm:justify-end">{actions}</div>
    </li>
  );
}
