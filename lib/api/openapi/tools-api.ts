import type { OperationSpec } from "./operations";

// Moved to lib/api/endpoints/tools.ts.
export const toolsApi: OperationSpec[] = [];
