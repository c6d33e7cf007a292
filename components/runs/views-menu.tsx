"use client";

import { Bookmark, ChevronDown } from "lucide-react";
import dynamic from "next/dynamic";
import { useState } from "react";
import { Button } from "@/components/ui/button";

const load = () => import("./saved-views").then((m) => m.SavedViews);
const SavedViews = dynamic(load, { ssr: false, loading: () => <ViewsButton /> });

function ViewsButton(props: { onClick?: () => void; onPointerEnter?: () => void }) {
  return (
    <Button {...props}>
      <Bookmark aria-hidden />
      Views
      <ChevronDown aria-hidden className="text-muted-foreground" />
    </Button>
  );
}

/**
 * The saved-views menu, loaded on first use: it brings Radix's menu and dialog, which the list
 * itself does not need. A pointer over the button fetches it; a click (or Enter) opens it.
 */
export function ViewsMenu({ query, apply }: { query: string; apply: (query: string) => void }) {
  const [state, setState] = useState<"idle" | "open">("idle");
  if (state === "idle")
    return <ViewsButton onPointerEnter={() => void load()} onClick={() => setState("open")} />;
  return <SavedViews query={query} apply={apply} defaultOpen={state === "open"} />;
}
