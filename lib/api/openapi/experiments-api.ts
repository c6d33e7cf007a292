import type { OperationSpec } from "./operations";

// Moved to lib/api/endpoints/experiments.ts.
export const experimentsApi: OperationSpec[] = [];
