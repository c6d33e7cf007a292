// Converted from lib/api/openapi/automation-api.ts: see lib/api/endpoints/crew.ts for the pattern.
export {};
