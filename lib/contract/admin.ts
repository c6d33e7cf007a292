import { z } from "zod";
import { tokenLifeFields } from "./fields";

// Administration: remote deployments, tokens, people; and the service's own liveness answer.
export const DeploymentViewSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    base_url: z.string(),
    signs_webhooks: z.boolean(),
    created_at: z.string(),
  })
  .meta({ id: "Deployment" });
export type DeploymentView = z.infer<typeof DeploymentViewSchema>;
/** What Test connection answers (lib/deployments/test-connection.ts builds it). */
export const ConnectionCheckSchema = z
  .discriminatedUnion("ok", [
    z.object({ ok: z.literal(true), inputs: z.array(z.string()), health: z.string() }),
    z.object({ ok: z.literal(false), step: z.enum(["health", "inputs"]), reason: z.string() }),
  ])
  .meta({ id: "ConnectionCheck" });
export const DeploymentListSchema = z
  .object({ deployments: z.array(DeploymentViewSchema) })
  .meta({ id: "DeploymentList" });

export const TokenRowSchema = z
  .object({
    id: z.string(),
    kind: z.enum(["org", "user"]),
    email: z.string().nullable(),
    prefix: z.string(),
    label: z.string().nullable(),
    ...tokenLifeFields,
  })
  .meta({ id: "Token" });
export type TokenRow = z.infer<typeof TokenRowSchema>;
export const UserRowSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    role: z.string(),
    teams: z.array(z.string()).describe("Team names a crew's review block may assign to"),
    has_password: z.boolean(),
    disabled: z.boolean(),
    created_at: z.string(),
  })
  .meta({ id: "User" });
export type UserRow = z.infer<typeof UserRowSchema>;

// Small answers of the settings routes.
export const TokensListSchema = z
  .object({ tokens: z.array(TokenRowSchema) })
  .meta({ id: "TokenList" });
export const CreatedTokenSchema = z
  .object({ id: z.string(), token: z.string().describe("Shown once") })
  .passthrough()
  .meta({ id: "CreatedToken" });
export const UsersListSchema = z.object({ users: z.array(UserRowSchema) }).meta({ id: "UserList" });
export const UnlockedUserSchema = z
  .object({
    email: z.string(),
    locked_pairs: z.number().int().describe("Account-and-address locks that were in force"),
  })
  .meta({ id: "UnlockedUser" });

// POST /api/tokens: the dashboard creates tokens for the person signed in.
export const TokenRequestSchema = z
  .object({
    kind: z.enum(["org", "user"]),
    label: z.string().trim().max(200).optional(),
  })
  .meta({ id: "TokenRequest" });

export const RevokedSchema = z
  .object({ revoked: z.number().int().describe("How many tokens were revoked (0: none matched)") })
  .meta({ id: "Revoked" });

export const HealthzSchema = z.object({ status: z.literal("ok") }).meta({ id: "Healthz" });
