// Converted from lib/api/openapi/integrations-api.ts: see lib/api/endpoints/crew.ts for the pattern.
export {};
