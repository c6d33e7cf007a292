"use client";

import dynamic from "next/dynamic";
import { Skeleton } from "@/components/ui/skeleton";

/** Markdown, loaded on first use: react-markdown is not part of the run page's first load. */
export const LazyMarkdown = dynamic(() => import("@/components/markdown").then((m) => m.Markdown), {
  ssr: false,
  loading: () => <Skeleton className="h-16 w-full" />,
});
