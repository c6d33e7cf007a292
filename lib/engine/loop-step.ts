// The shapes of one step of the agent's tool loop (./tool-loop.ts), shared by the modules that
// read, run and record its tool calls.

export type LoopToolCall = { toolCallId: string; toolName: string; input: unknown };

export type LoopToolOutput =
  | { type: "tool-result"; toolCallId: string; toolName: string; output: unknown }
  | { type: "tool-error"; toolCallId: string; toolName: string; error: unknown };

/** One model call and what came of it. */
export type LoopStep = {
  /** The model's text parts, joined. */
  text: string;
  reasoningText: string | undefined;
  toolCalls: LoopToolCall[];
  /** Results and errors of the calls that ran (and of calls that could not be read), in order. */
  toolOutputs: LoopToolOutput[];
  /** The calls that wait for a person's approval (their tool's `needsApproval`); not run. */
  approvalRequests: LoopToolCall[];
  usage: { inputTokens: number | undefined; outputTokens: number | undefined };
};

/** An error as the model and the log read it. */
export function messageOf(error: unknown): string {
  if (error == null) return "unknown error";
  if (typeof error === "string") return error;
  if (error instanceof Error) return error.message;
  return JSON.stringify(error);
}
