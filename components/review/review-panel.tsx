"use client";

import dynamic from "next/dynamic";
import type { ReviewPanelProps } from "./decision";
import { OutputReviewPanel } from "./output-review-panel";

// Tool calls waiting for approval have their own panel, loaded when one is shown.
const ToolCallPanel = dynamic(() => import("./tool-call-panel").then((m) => m.ToolCallPanel), {
  loading: () => null,
});
// A flow's human feedback: outcomes to choose among, loaded when one is shown.
const FeedbackReviewPanel = dynamic(
  () => import("./feedback-review-panel").then((m) => m.FeedbackReviewPanel),
  { loading: () => null },
);

/** The review of a task's output, or of the tool calls its agent asked to make. */
export function ReviewPanel(props: ReviewPanelProps) {
  if (props.pending.kind === "tool_call") return <ToolCallPanel {...props} />;
  if (props.pending.feedback) return <FeedbackReviewPanel {...props} />;
  return <OutputReviewPanel {...props} />;
}
