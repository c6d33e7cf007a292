"use client";

import { createContext, type ReactNode, useCallback, useContext } from "react";

// Each crew is called by its display name everywhere on the dashboard ("Research brief", not
// "research-brief"): the layout hands every page the names of the crews its reader may see.
const CrewNames = createContext<Record<string, string>>({});

export function CrewNamesProvider({
  names,
  children,
}: {
  names: Record<string, string>;
  children: ReactNode;
}) {
  return <CrewNames.Provider value={names}>{children}</CrewNames.Provider>;
}

/** A crew's display name from its slug; the slug itself when it has none (a remote run's). */
export function useCrewName() {
  const names = useContext(CrewNames);
  return useCallback((slug: string) => names[slug] ?? slug, [names]);
}
