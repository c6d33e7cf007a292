import {
  Brain,
  CircleStop,
  CircleX,
  GitFork,
  Hand,
  type LucideIcon,
  MessageSquareText,
  Radio,
  RotateCcw,
  ShieldCheck,
  TriangleAlert,
  Wrench,
} from "lucide-react";
import type { StepKind } from "./trace-types";

// One look per kind of step, shared by the bars, the legend and the detail pane.
export const STEP_STYLE: Record<StepKind, { icon: LucideIcon; bar: string; name: string }> = {
  thought: { icon: Brain, bar: "bg-chart-3", name: "Thought" },
  tool: { icon: Wrench, bar: "bg-chart-4", name: "Tool" },
  answer: { icon: MessageSquareText, bar: "bg-chart-1", name: "Answer" },
  review: { icon: Hand, bar: "bg-chart-5", name: "Review" },
  failed: { icon: CircleX, bar: "bg-chart-2", name: "Failure" },
  remote: { icon: Radio, bar: "bg-chart-3", name: "Deployment" },
  check: { icon: ShieldCheck, bar: "bg-chart-1", name: "Check" },
  retry: { icon: RotateCcw, bar: "bg-chart-2", name: "Retry" },
  warning: { icon: TriangleAlert, bar: "bg-chart-5", name: "Warning" },
  stopped: { icon: CircleStop, bar: "bg-muted-foreground/60", name: "Stopped" },
  inherited: { icon: GitFork, bar: "bg-muted-foreground/40", name: "Inherited" },
};

export const LEGEND: StepKind[] = ["thought", "tool", "answer", "review"];
