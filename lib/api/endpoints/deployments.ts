import {
  ConnectionCheckSchema,
  DeploymentListSchema,
  DeploymentViewSchema,
} from "@/lib/contract/admin";
import { DeploymentInputSchema, DeploymentPatchSchema } from "@/lib/deployments/store";
import { endpoint } from "./endpoint";
import { admin, INVALID_BODY, read } from "./shared";

// Remote deployments: other Crewdeck servers and CrewAI deployments this dashboard fronts.
const tag = "Administration";
const noDeployment = { 404: "No such deployment." };

export const listDeployments = endpoint({
  method: "GET",
  path: "/api/deployments",
  operationId: "listDeployments",
  tag,
  summary: "Remote deployments (names and URLs; never their tokens)",
  access: read,
  responses: { 200: { description: "OK", schema: DeploymentListSchema } },
});

export const addDeployment = endpoint({
  method: "POST",
  path: "/api/deployments",
  operationId: "addDeployment",
  tag,
  summary: "Add a remote deployment (a crew served elsewhere over this API)",
  description: "Its crew is then served here as `/api/crews/@<slug>`.",
  access: admin,
  body: { schema: DeploymentInputSchema, limit: 16 * 1024, invalid: 422 },
  responses: { 201: { description: "Added.", schema: DeploymentViewSchema } },
  problems: { ...INVALID_BODY, 409: "Too many deployments share this name." },
});

export const updateDeployment = endpoint({
  method: "PATCH",
  path: "/api/deployments/{deployment}",
  operationId: "updateDeployment",
  tag,
  summary: "Change a deployment's name, URL, token or webhook secret",
  description: "A blank token or webhook_secret keeps the saved one.",
  access: admin,
  body: { schema: DeploymentPatchSchema, limit: 16 * 1024, invalid: 422 },
  responses: { 200: { description: "Changed.", schema: DeploymentViewSchema } },
  problems: { ...INVALID_BODY, ...noDeployment, 409: "It changed meanwhile; retry." },
});

export const deleteDeployment = endpoint({
  method: "DELETE",
  path: "/api/deployments/{deployment}",
  operationId: "deleteDeployment",
  tag,
  summary: "Remove a remote deployment",
  access: admin,
  responses: { 204: { description: "Removed." } },
  problems: noDeployment,
});

export const testDeployment = endpoint({
  method: "POST",
  path: "/api/deployments/{deployment}/test",
  operationId: "testDeployment",
  tag,
  summary: "Test connection: GET / and GET /inputs on the deployment",
  description: "`ok: false` says which step failed and why, in words an administrator can act on.",
  access: admin,
  responses: { 200: { description: "The outcome.", schema: ConnectionCheckSchema } },
  problems: noDeployment,
});
