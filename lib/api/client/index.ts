// The dashboard's API client, one module per area; every answer is parsed with the server's zod
// schema (see request.ts). `legacy.ts` holds the calls not yet moved to a schema-checked module.
export * from "./crew";
export * from "./inputs";
export * from "./legacy";
export { ApiError, type Problem, request, schema } from "./request";
export * from "./runs";
export * from "./views";
