import { McpConfigError, type McpServerDef, parseMcpServers } from "@/lib/crew/mcp-config";
import { crewCatalog } from "@/lib/crew/registry";
import type { Db } from "@/lib/db/types";
import { errorMessage, errors } from "@/lib/errors";
import { resolveFor } from "./index";
import { listToolsOnce } from "./pool";
import { redact } from "./redact";
import type { McpServersView, McpTestRequest, McpTestResult } from "./schemas";
import { readDeploymentServers, saveDeploymentServers } from "./store";

// Settings → Tools: the deployment's MCP servers (merged under each crew's own at run time) and
// a test that connects and lists tools, exactly as a task would (same pool rules, SSRF guard).

export async function describeServers(db: Db): Promise<McpServersView> {
  const servers = await readDeploymentServers(db);
  // A crew's own server of the same name wins for its agents: say which crews do that.
  const warnings = [...crewCatalog().crews.values()].flatMap((crew) =>
    (crew.mcp_servers ?? [])
      .filter((own) => servers.some((s) => s.name === own.name))
      .map(
        (own) =>
          `crew '${crew.slug}' declares its own '${own.name}': its agents use that one, not this`,
      ),
  );
  return {
    servers: Object.fromEntries(servers.map(({ name, ...rest }) => [name, rest])),
    warnings,
  };
}

export async function saveServers(db: Db, servers: Record<string, unknown>) {
  try {
    await saveDeploymentServers(db, servers);
  } catch (err) {
    if (err instanceof McpConfigError)
      throw errors.unprocessable(`servers.${err.key}: ${err.message}`, {
        errors: [{ path: `servers.${err.key}`, message: err.message }],
      });
    throw err;
  }
  return describeServers(db);
}

/** The server a test is of: a saved one by name, or one given whole in the request. */
async function serverToTest(db: Db, body: McpTestRequest): Promise<McpServerDef> {
  if (body.name) {
    const saved = (await readDeploymentServers(db)).find((s) => s.name === body.name);
    if (!saved) throw errors.notFound(`No saved MCP server is named '${body.name}'.`);
    return saved;
  }
  let given: McpServerDef[];
  try {
    given = parseMcpServers({ test: body.server });
  } catch (err) {
    if (err instanceof McpConfigError)
      throw errors.unprocessable(`server${err.key.slice(4)}: ${err.message}`);
    throw err;
  }
  // One name in, one server out.
  const [def] = given;
  if (!def) throw errors.unprocessable("server: an MCP server to test is required.");
  return def;
}

export async function testServer(db: Db, body: McpTestRequest): Promise<McpTestResult> {
  const server = await serverToTest(db, body);
  let secrets: string[] = [];
  try {
    const resolved = await resolveFor(db, server);
    secrets = resolved.secrets;
    // A connection of its own, closed after: a test says whether the server starts now.
    const tools = await listToolsOnce(resolved);
    return {
      ok: true,
      tools: tools.map((t) => ({
        name: t.name,
        description: t.description ? redact(t.description, secrets) : null,
        writes: t.annotations?.readOnlyHint !== true,
      })),
      error: null,
    };
  } catch (err) {
    return { ok: false, tools: [], error: redact(errorMessage(err), secrets) };
  }
}
