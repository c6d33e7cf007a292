// Converted from lib/api/openapi/experiments-api.ts: see lib/api/endpoints/crew.ts for the pattern.
export {};
