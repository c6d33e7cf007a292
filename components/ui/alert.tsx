import { CircleAlert, CircleCheck, Info, TriangleAlert } from "lucide-react";
import type { ComponentProps, ReactNode } from "react";
import { cn } from "./cn";

const tones = {
  info: { icon: Info, className: "bg-tone-info text-tone-info-foreground" },
  success: { icon: CircleCheck, className: "bg-tone-success text-tone-success-foreground" },
  warning: { icon: TriangleAlert, className: "bg-tone-warning text-tone-warning-foreground" },
  danger: { icon: CircleAlert, className: "bg-tone-danger text-tone-danger-foreground" },
};

/** A message in the page's flow. Danger alerts are announced (role=alert); others are status. */
export function Alert({
  tone = "info",
  title,
  children,
  className,
  ...props
}: Omit<ComponentProps<"div">, "title"> & {
  tone?: keyof typeof tones;
  title?: ReactNode;
}) {
  const { icon: Icon, className: toneClass } = tones[tone];
  return (
    <div
      role={tone === "danger" ? "alert" : "status"}
      className={cn("flex gap-2.5 rounded-lg px-3 py-2.5 text-sm", toneClass, className)}
      {...props}
    >
      <Icon aria-hidden className="mt-0.5 size-4 shrink-0" />
      <div className="grid min-w-0 gap-0.5">
        {title && <p className="font-medium">{title}</p>}
        {children && <div className="min-w-0 break-words">{children}</div>}
      </div>
    </div>
  );
}
