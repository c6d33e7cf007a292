"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import type { ReactNode } from "react";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";

export type SettingsTab = { id: string; label: string; content: ReactNode };

/** The settings sections as tabs; the open one is in the URL (?tab=…) so it can be linked. */
export function SettingsTabs({ tabs }: { tabs: SettingsTab[] }) {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  // Linear's OAuth round trip comes back as /settings?linear=… (or linear_error=…).
  const fromLinear = params.has("linear") || params.has("linear_error");
  const asked = params.get("tab") ?? (fromLinear ? "integrations" : null);
  const current = tabs.some((t) => t.id === asked) ? (asked as string) : (tabs[0]?.id ?? "");
  const select = (id: string) => {
    const next = new URLSearchParams(params);
    next.set("tab", id);
    router.replace(`${pathname}?${next}`, { scroll: false });
  };
  return (
    <Tabs value={current} onValueChange={select}>
      {tabs.length > 1 && (
        <TabsList aria-label="Settings sections" className="flex-wrap">
          {tabs.map((t) => (
            <TabsTrigger key={t.id} value={t.id}>
              {t.label}
            </TabsTrigger>
          ))}
        </TabsList>
      )}
      {tabs.map((t) => (
        <TabsContent key={t.id} value={t.id} className="grid min-w-0 gap-6 [&>*]:min-w-0">
          {t.content}
        </TabsContent>
      ))}
    </Tabs>
  );
}
