import { z } from "zod";

// Settings → Tools' API shapes (zod only: the dashboard's client loads them too). A server is
// checked in full by parseMcpServers (lib/crew/mcp-config.ts), which names the key at fault.

const ServerMapSchema = z
  .record(z.string(), z.record(z.string(), z.unknown()))
  .describe(
    `Server name → a stdio server {command, args, env, cwd} or a Streamable HTTP server {url, headers}, each with optional requires_approval and timeout_seconds. Credential-like env and header values must be \${env:NAME} or \${secret:NAME}.`,
  );

export const McpServersInputSchema = z
  .object({ servers: ServerMapSchema })
  .meta({ id: "McpServersInput" });
export type McpServersInput = z.infer<typeof McpServersInputSchema>;

export const McpServersViewSchema = z
  .object({
    servers: ServerMapSchema,
    warnings: z
      .array(z.string())
      .describe("Crews that declare a server of the same name (theirs wins for their agents)"),
  })
  .meta({ id: "McpServers" });
export type McpServersView = z.infer<typeof McpServersViewSchema>;

export const McpTestRequestSchema = z
  .object({
    name: z.string().min(1).max(40).optional().describe("A saved deployment server"),
    server: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("Or a server not saved yet, as in `servers`"),
  })
  .refine((b) => Boolean(b.name) !== Boolean(b.server), "give either name or server")
  .meta({ id: "McpTestRequest" });
export type McpTestRequest = z.infer<typeof McpTestRequestSchema>;

export const McpTestResultSchema = z
  .object({
    ok: z.boolean(),
    tools: z.array(
      z.object({
        name: z.string(),
        description: z.string().nullable(),
        writes: z.boolean().describe("false when the server marks it read-only"),
      }),
    ),
    error: z.string().nullable(),
  })
  .meta({ id: "McpTestResult" });
export type McpTestResult = z.infer<typeof McpTestResultSchema>;

const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
export const McpSecretsInputSchema = z
  .object({
    secrets: z
      .record(
        z.string().regex(SECRET_NAME, "secret names are letters, digits and '_'"),
        z.string().min(1).max(8000).nullable(),
      )
      .describe("Name → value to set, or null to remove; names not given are kept"),
  })
  .meta({ id: "McpSecretsInput" });
export type McpSecretsInput = z.infer<typeof McpSecretsInputSchema>;

export const McpSecretsViewSchema = z
  .object({
    secrets: z.array(z.object({ name: z.string(), updated_at: z.string() })),
  })
  .describe("Names only: values are never sent back")
  .meta({ id: "McpSecrets" });
export type McpSecretsView = z.infer<typeof McpSecretsViewSchema>;
