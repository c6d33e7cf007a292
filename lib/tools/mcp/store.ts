import { z } from "zod";
import { seal, unseal } from "@/lib/config/encryption";
import { type McpServerDef, parseMcpServers } from "@/lib/crew/mcp-config";
import { readSetting, writeSetting } from "@/lib/db/settings";
import type { Db } from "@/lib/db/types";
import { errorMessage } from "@/lib/errors";

// What administrators save in Settings → Tools: the deployment's own MCP servers (sealed as a
// whole: a URL or an argument may say more than it should) and the secrets `${secret:NAME}`
// stands for (each sealed; their values are never sent back).
const SERVERS_KEY = "mcp_servers";
const SECRETS_KEY = "mcp_secrets";

const SavedServers = z.object({ sealed: z.string() });
const SavedSecrets = z.record(z.string(), z.object({ sealed: z.string(), updated_at: z.string() }));

/** The deployment's servers as written (references unresolved), by name. */
export async function readDeploymentServers(db: Db): Promise<McpServerDef[]> {
  const saved = await readSetting(db, SERVERS_KEY, SavedServers);
  if (!saved) return [];
  try {
    return parseMcpServers(JSON.parse(unseal(saved.sealed)));
  } catch (err) {
    console.error(`[crewdeck] saved MCP servers unreadable: ${errorMessage(err)}`);
    return [];
  }
}

/** The map as written; checked like a crew's `mcp_servers` (throws McpConfigError). */
export async function saveDeploymentServers(db: Db, servers: Record<string, unknown>) {
  const parsed = parseMcpServers(servers);
  const map = Object.fromEntries(parsed.map(({ name, ...rest }) => [name, rest]));
  await writeSetting(db, SERVERS_KEY, { sealed: seal(JSON.stringify(map)) });
  return parsed;
}

/** The names of the saved secrets and when each was last set; never their values. */
export async function listSecrets(db: Db) {
  const saved = (await readSetting(db, SECRETS_KEY, SavedSecrets)) ?? {};
  return Object.entries(saved)
    .map(([name, s]) => ({ name, updated_at: s.updated_at }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Sets (a string) or removes (null) each named secret; the others are kept. */
export async function saveSecrets(db: Db, changes: Record<string, string | null>) {
  const saved = (await readSetting(db, SECRETS_KEY, SavedSecrets)) ?? {};
  const now = new Date().toISOString();
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) delete saved[name];
    else saved[name] = { sealed: seal(value), updated_at: now };
  }
  await writeSetting(db, SECRETS_KEY, saved);
}

/** The secrets unsealed, for resolving `${secret:NAME}` just before connecting; in memory only. */
export async function readSecretValues(db: Db): Promise<Map<string, string>> {
  const saved = (await readSetting(db, SECRETS_KEY, SavedSecrets)) ?? {};
  return new Map(Object.entries(saved).map(([name, s]) => [name, unseal(s.sealed)]));
}
