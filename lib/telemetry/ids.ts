import crypto from "node:crypto";

// An execution is one trace whichever process runs which part of it: its trace id is its own
// UUID, and the execution's and each task's span ids are derived from it, so an attempt run by
// any worker (after a take-over, a restart, a review) names the same parents.

/** The trace id of an execution: its UUID's 32 hex digits. */
export const traceIdOf = (executionId: string) => executionId.replace(/-/g, "").toLowerCase();

const spanId = (key: string) => crypto.createHash("sha256").update(key).digest("hex").slice(0, 16);

/** The execution's own (root) span. */
export const executionSpanId = (executionId: string) => spanId(`execution:${executionId}`);

/** The span of one task of the execution, parent of every attempt at it. */
export const taskSpanId = (executionId: string, taskId: string) =>
  spanId(`task:${executionId}:${taskId}`);
