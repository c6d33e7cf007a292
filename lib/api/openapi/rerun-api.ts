import type { OperationSpec } from "./operations";

// Moved to lib/api/endpoints/rerun.ts.
export const rerunApi: OperationSpec[] = [];
