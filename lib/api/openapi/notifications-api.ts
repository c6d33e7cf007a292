import type { OperationSpec } from "./operations";

// Moved to lib/api/endpoints/notifications.ts.
export const notificationsApi: OperationSpec[] = [];
