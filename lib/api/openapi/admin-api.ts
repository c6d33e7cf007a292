import type { OperationSpec } from "./operations";

// Moved to lib/api/endpoints/admin.ts.
export const adminApi: OperationSpec[] = [];
