// The dashboard's API client, one module per area; every answer is parsed with the server's zod
// schema (see request.ts).

export * from "./automation";
export * from "./crew";
export * from "./deployments";
export * from "./experiments";
export * from "./inputs";
export * from "./integrations";
export * from "./ledger";
export * from "./notifications";
export { ApiError } from "./request";
export * from "./runs";
export * from "./settings";
export * from "./tools";
export * from "./views";
