import type { OperationSpec } from "./operations";

// Moved to lib/api/endpoints/webhooks.ts.
export const webhooksApi: OperationSpec[] = [];
