// Converted from lib/api/openapi/webhooks-api.ts: see lib/api/endpoints/crew.ts for the pattern.
export {};
