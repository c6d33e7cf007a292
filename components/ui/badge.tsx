import { cva, type VariantProps } from "class-variance-authority";
import type { ComponentProps } from "react";
import { cn } from "./cn";

export const badgeVariants = cva(
  "inline-flex shrink-0 items-center gap-1 whitespace-nowrap rounded-full px-2 py-0.5 font-medium text-xs [&_svg]:size-3",
  {
    variants: {
      tone: {
        neutral: "bg-tone-neutral text-tone-neutral-foreground",
        info: "bg-tone-info text-tone-info-foreground",
        success: "bg-tone-success text-tone-success-foreground",
        warning: "bg-tone-warning text-tone-warning-foreground",
        danger: "bg-tone-danger text-tone-danger-foreground",
        outline: "border border-border text-muted-foreground",
      },
    },
    defaultVariants: { tone: "neutral" },
  },
);

export type BadgeTone = NonNullable<VariantProps<typeof badgeVariants>["tone"]>;

export function Badge({
  className,
  tone,
  ...props
}: ComponentProps<"span"> & VariantProps<typeof badgeVariants>) {
  return <span className={cn(badgeVariants({ tone }), className)} {...props} />;
}
