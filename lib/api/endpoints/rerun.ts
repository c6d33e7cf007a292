// Converted from lib/api/openapi/rerun-api.ts: see lib/api/endpoints/crew.ts for the pattern.
export {};
