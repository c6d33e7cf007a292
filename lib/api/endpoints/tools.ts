// Converted from lib/api/openapi/tools-api.ts: see lib/api/endpoints/crew.ts for the pattern.
export {};
