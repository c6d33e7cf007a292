// Converted from lib/api/openapi/protocols-api.ts: see lib/api/endpoints/crew.ts for the pattern.
export {};
