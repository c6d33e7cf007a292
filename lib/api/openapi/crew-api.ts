import type { OperationSpec } from "./operations";

// Moved to lib/api/endpoints/crew.ts.
export const crewApi: OperationSpec[] = [];
