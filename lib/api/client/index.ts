// The dashboard's API client, one module per area; every answer is parsed with the server's zod
// schema (see request.ts). `legacy.ts` holds the calls not yet moved to a schema-checked module.
export * from "./deployments";
export * from "./integrations";
export * from "./legacy";
export { ApiError, type Problem, request } from "./request";
export * from "./settings";
