// The sentence a run waiting on a review carries, in every protocol (A2A's status message and
// pushes, AG-UI's interrupt, MCP's input request).

export function reviewSentence(review: { task_id: string; kind: string; output: string }) {
  const what =
    review.kind === "tool_call"
      ? `tool calls of task '${review.task_id}' await approval`
      : `task '${review.task_id}' awaits review`;
  return `Waiting for a person: ${what} in the inbox, or reply with a decision. Output to review:\n${review.output}`;
}
