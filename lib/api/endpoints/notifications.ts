// Converted from lib/api/openapi/notifications-api.ts: see lib/api/endpoints/crew.ts for the pattern.
export {};
