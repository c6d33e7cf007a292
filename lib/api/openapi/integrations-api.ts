import type { OperationSpec } from "./operations";

// Moved to lib/api/endpoints/integrations.ts.
export const integrationsApi: OperationSpec[] = [];
