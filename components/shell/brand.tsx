import Link from "next/link";
import { cn } from "@/components/ui/cn";

/** Crewdeck's mark: three stacked cards, the crew's tasks, the top one in the brand colour. */
export function BrandMark({ className }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 32 32"
      aria-hidden="true"
      focusable="false"
      className={cn("size-7", className)}
    >
      <rect width="32" height="32" rx="8" className="fill-primary" />
      <rect x="8" y="19" width="16" height="4" rx="2" fill="white" opacity="0.45" />
      <rect x="8" y="14" width="16" height="4" rx="2" fill="white" opacity="0.7" />
      <rect x="8" y="9" width="16" height="4" rx="2" fill="white" />
    </svg>
  );
}

export function Brand({ href = "/" }: { href?: string }) {
  return (
    <Link
      href={href}
      className="flex items-center gap-2 font-semibold text-base text-foreground tracking-tight"
    >
      <BrandMark />
      <span>Crewdeck</span>
    </Link>
  );
}
