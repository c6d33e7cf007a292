import {
  CircleCheck,
  CircleDashed,
  CircleDot,
  CircleStop,
  CircleX,
  Clock,
  Hand,
} from "lucide-react";
import { statusLabel } from "@/lib/format/status";
import { Badge } from "./badge";

const ICONS = {
  queued: Clock,
  pending: CircleDashed,
  running: CircleDot,
  pending_human_input: Hand,
  completed: CircleCheck,
  error: CircleX,
  cancelled: CircleStop,
} as const;

/** A run's or task's state in words, with an icon so it never depends on colour alone. */
export function StatusPill({ status, className }: { status: string; className?: string }) {
  const { label, tone } = statusLabel(status);
  const Icon = ICONS[status as keyof typeof ICONS] ?? CircleDashed;
  return (
    <Badge tone={tone} className={className} data-status={status}>
      <Icon
        aria-hidden
        className={status === "running" ? "motion-safe:animate-pulse" : undefined}
      />
      {label}
    </Badge>
  );
}
