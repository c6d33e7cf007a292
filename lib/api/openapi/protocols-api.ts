import type { OperationSpec } from "./operations";

// Moved to lib/api/endpoints/protocols.ts.
export const protocolsApi: OperationSpec[] = [];
