import type { ReactNode } from "react";
import { BrandMark } from "@/components/shell/brand";

// Signed-out pages: the brand and one card, no app navigation.
export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-6 px-4 py-10">
      <div className="flex items-center gap-2 font-semibold text-lg tracking-tight">
        <BrandMark className="size-8" />
        Crewdeck
      </div>
      <div className="w-full max-w-sm rounded-xl border bg-card p-6 shadow-sm">{children}</div>
    </main>
  );
}
