import { z } from "zod";
import { LocalAdminTokenActionSchema } from "@/lib/auth/manage-tokens";
import { SetupRequest } from "@/lib/auth/sign-in-setup";
import { NewUserSchema, UserChangeSchema } from "@/lib/auth/users";
import {
  CreatedTokenSchema,
  HealthzSchema,
  RevokedSchema,
  TokenRequestSchema,
  TokensListSchema,
  UnlockedUserSchema,
  UserRowSchema,
  UsersListSchema,
} from "@/lib/contract/admin";
import { ModelPricesUpdateSchema, ModelPricesViewSchema } from "@/lib/run-model/pricing";
import { endpoint } from "./endpoint";
import { uuidId } from "./path-params";
import { admin, INVALID_BODY, manage, setting } from "./shared";

// People, tokens and settings; and the service's own endpoints (deployments: deployments.ts).
const tag = "Administration";
// Tokens are managed by a person signed in; a token is refused before its body is read.
const manageTokens = "Manage tokens from the dashboard or `npm run token`.";
// Read as given: a lookup by anything else finds no one.
const userId = z.string().describe("The user's id.");
const noUser = { 404: "No such user." };
const lastAdmin = "That would leave no active administrator.";

export const listTokens = endpoint({
  method: "GET",
  path: "/api/tokens",
  operationId: "listTokens",
  tag,
  summary: "API tokens (administrators: all; others: their own user tokens)",
  access: { action: "read", sessionOnly: manageTokens },
  responses: { 200: { description: "OK", schema: TokensListSchema } },
});

export const createToken = endpoint({
  method: "POST",
  path: "/api/tokens",
  operationId: "createToken",
  tag,
  summary: "Create an API token (shown once)",
  description:
    "Organization tokens: administrators only. User tokens: for the person signed in, who must be allowed to start runs (operator or above).",
  access: { action: "read", inside: "self", sessionOnly: manageTokens },
  body: { schema: TokenRequestSchema, limit: 16 * 1024, invalid: 422 },
  responses: { 201: { description: "Created.", schema: CreatedTokenSchema } },
  problems: INVALID_BODY,
});

export const revokeToken = endpoint({
  method: "DELETE",
  path: "/api/tokens/{id}",
  operationId: "revokeToken",
  tag,
  summary: "Revoke a token (administrators: any; others: their own)",
  access: {
    action: "read",
    inside: "self",
    sessionOnly: "Revoke tokens from the dashboard or `npm run token`.",
  },
  params: { id: uuidId("token") },
  responses: { 204: { description: "Revoked." } },
  problems: { 404: "No such token (of the caller's)." },
});

export const listUsers = endpoint({
  method: "GET",
  path: "/api/users",
  operationId: "listUsers",
  tag,
  summary: "People and their roles",
  access: admin,
  responses: { 200: { description: "OK", schema: UsersListSchema } },
});

export const addUser = endpoint({
  method: "POST",
  path: "/api/users",
  operationId: "addUser",
  tag,
  summary: "Add a person with a role and a password",
  access: admin,
  body: { schema: NewUserSchema, limit: 16 * 1024, invalid: 422 },
  responses: { 201: { description: "Added.", schema: UserRowSchema } },
  problems: { ...INVALID_BODY, 409: "A user with that email exists." },
});

export const changeUser = endpoint({
  method: "PATCH",
  path: "/api/users/{id}",
  operationId: "changeUser",
  tag,
  summary: "Change a person's role, disable or re-enable them, or reset their password",
  access: admin,
  params: { id: userId },
  body: { schema: UserChangeSchema, limit: 4 * 1024, invalid: 422 },
  responses: { 200: { description: "Changed.", schema: UserRowSchema } },
  problems: {
    400: "Malformed JSON, an unknown field or a wrong type.",
    ...noUser,
    409: lastAdmin,
    413: "Body too large.",
    422: "Nothing to change, or a value out of range.",
  },
});

export const removeUser = endpoint({
  method: "DELETE",
  path: "/api/users/{id}",
  operationId: "removeUser",
  tag,
  summary: "Remove a person",
  access: admin,
  params: { id: userId },
  responses: { 204: { description: "Removed." } },
  problems: { ...noUser, 409: lastAdmin },
});

export const unlockUser = endpoint({
  method: "POST",
  path: "/api/users/{id}/unlock",
  operationId: "unlockUser",
  tag,
  summary: "Clear a person's sign-in locks",
  description:
    "Forgets every account-and-address lock and the account-wide slow-down of the person's email. Locks live in each web instance's memory: this clears the instance that answers (others' locks run out on their own, at most an hour).",
  access: admin,
  params: { id: uuidId("user") },
  responses: { 200: { description: "Cleared.", schema: UnlockedUserSchema } },
  problems: noUser,
});

const modelPriceTable = setting("/api/settings/model-prices", {
  tag,
  access: admin,
  view: ModelPricesViewSchema,
});

export const modelPrices = modelPriceTable.get({
  operationId: "modelPrices",
  summary: "The price table behind estimated costs (USD per million tokens)",
  description:
    "Each layer and the table in force: defaults < saved here < `MODEL_PRICES` (the environment wins).",
});

export const saveModelPrices = modelPriceTable.save({
  operationId: "saveModelPrices",
  summary: "Save the dashboard's price table (replaces the saved one)",
  body: { schema: ModelPricesUpdateSchema },
});

export const setup = endpoint({
  method: "POST",
  path: "/api/setup",
  operationId: "setup",
  tag,
  summary: "First-run setup: create the first administrator",
  access: { public: "the setup code printed on the server console at start is the proof" },
  body: { schema: SetupRequest, limit: 16 * 1024, invalid: 422 },
  responses: { 201: { description: "Created.", schema: UserRowSchema } },
  problems: {
    ...INVALID_BODY,
    403: "Wrong setup code.",
    409: "Already set up.",
    429: "Too many wrong codes.",
  },
});

export const localAdminListTokens = endpoint({
  method: "GET",
  path: "/api/admin/tokens",
  operationId: "localAdminListTokens",
  tag,
  summary: "Every token (for `npm run token` on the server's machine)",
  access: { localAdmin: true },
  responses: { 200: { description: "OK", schema: TokensListSchema } },
});

export const localAdminTokenAction = endpoint({
  method: "POST",
  path: "/api/admin/tokens",
  operationId: "localAdminTokenAction",
  tag,
  summary: "Create or revoke a token (for `npm run token` on the server's machine)",
  access: { localAdmin: true },
  body: { schema: LocalAdminTokenActionSchema, limit: 16 * 1024 },
  responses: {
    200: { description: "Revoked.", schema: RevokedSchema },
    201: { description: "Created (shown once).", schema: CreatedTokenSchema },
  },
  problems: INVALID_BODY,
});

export const healthz = endpoint({
  method: "GET",
  path: "/api/healthz",
  operationId: "healthz",
  tag: "Service",
  summary: "Liveness for load balancers (no database)",
  access: { public: "anyone may call it", plain: true },
  responses: { 200: { description: "The process answers.", schema: HealthzSchema } },
});

export const metrics = endpoint({
  method: "GET",
  path: "/api/metrics",
  operationId: "metrics",
  tag: "Service",
  summary: "Prometheus metrics (text exposition format)",
  description:
    "Runs started and ended by crew and outcome, task and review durations (histograms), queue depth and the oldest queued run's age, webhook deliveries, model tokens and estimated cost, lease take-overs. Callers from METRICS_ALLOWED_NETWORKS need no token; others need an organization token or an administrator. Counters are per process: sum them across instances.",
  access: manage,
  responses: {
    200: {
      description: "The metrics, in Prometheus' text format 0.0.4.",
      mediaType: "text/plain",
      schema: { type: "string" },
    },
  },
});

export const openapi = endpoint({
  method: "GET",
  path: "/api/openapi.json",
  operationId: "openapi",
  tag: "Service",
  summary: "This document",
  access: { public: "anyone may read it", plain: true },
  responses: {
    200: { description: "OpenAPI 3.1.", schema: { type: "object" } },
  },
});
