import type { OperationSpec } from "./operations";

// Moved to lib/api/endpoints/automation.ts.
export const automationApi: OperationSpec[] = [];
