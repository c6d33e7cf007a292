// Converted from lib/api/openapi/runs-api.ts: see lib/api/endpoints/crew.ts for the pattern.
export {};
