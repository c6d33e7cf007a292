// Converted from lib/api/openapi/admin-api.ts: see lib/api/endpoints/crew.ts for the pattern.
export {};
