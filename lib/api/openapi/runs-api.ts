import type { OperationSpec } from "./operations";

// Moved to lib/api/endpoints/runs.ts.
export const runsApi: OperationSpec[] = [];
