import crypto from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type CallToolResult,
  type CompatibilityCallToolResult,
  ErrorCode,
  McpError,
  type Tool as McpTool,
} from "@modelcontextprotocol/sdk/types.js";
import { env } from "@/lib/config/env";
import type { McpServerDef } from "@/lib/crew/mcp-config";
import { errorCode, errorField, errorMessage } from "@/lib/errors";
import { guardedFetch } from "./guarded-fetch";
import { redact } from "./redact";
import type { Resolved } from "./resolve";

// This process's connections to MCP servers, one per server name and configuration (resolved
// values included, hashed: a rotated secret makes a new connection). Connected at first use, tools
// listed once; a connection that dies is dropped and made again at the next use, and a call that
// failed because it died is made once more on the new one. Closed on shutdown.

export type Connection = {
  client: Client;
  tools: McpTool[];
  /** Set once the transport has closed: the next use connects again. */
  closed: boolean;
  secrets: string[];
  stderrTail: () => string;
  /** Calls under way, and when the last one ended: idle connections are closed. */
  busy: number;
  lastUsed: number;
};

// On globalThis: instrumentation (the worker) and route handlers (Settings' test) are separate
// bundles with their own copies of this module, and shutdown must close every connection.
declare global {
  var __crewdeckMcpPool: Map<string, Promise<Connection>> | undefined;
}
const slot = globalThis;
slot.__crewdeckMcpPool ??= new Map();
const pool = slot.__crewdeckMcpPool;

const CONNECT_TIMEOUT_MS = 30_000;
const STDERR_TAIL = 2000;

/** A server that could not be reached or started; the message names it and is redacted. */
class McpConnectError extends Error {}

const keyOf = (r: Resolved) =>
  `${r.server.name}:${crypto.createHash("sha256").update(JSON.stringify(r.server)).digest("hex")}`;

/** The pooled connection to a server, made now if there is none (or it died). */
export async function connection(r: Resolved): Promise<Connection> {
  const key = keyOf(r);
  const existing = pool.get(key);
  if (existing) {
    const conn = await existing.catch(() => undefined);
    if (conn && !conn.closed) return conn;
    if (pool.get(key) === existing) pool.delete(key);
  }
  const made = connect(r).then(
    (conn) => {
      conn.client.onclose = () => {
        conn.closed = true;
        if (pool.get(key) === made) pool.delete(key);
      };
      return conn;
    },
    (err) => {
      if (pool.get(key) === made) pool.delete(key);
      throw err;
    },
  );
  pool.set(key, made);
  sweepIdle();
  return made;
}

// Every so often, connections nobody used for MCP_IDLE_SECONDS are closed. The timer does not
// keep the process alive; it runs only while the pool has connections.
let sweeper: NodeJS.Timeout | undefined;
function sweepIdle() {
  if (sweeper) return;
  const idleMs = env().MCP_IDLE_SECONDS * 1000;
  sweeper = setInterval(
    async () => {
      if (!pool.size) {
        clearInterval(sweeper);
        sweeper = undefined;
        return;
      }
      for (const [key, made] of [...pool]) {
        const conn = await made.catch(() => undefined);
        if (!conn || conn.busy || Date.now() - conn.lastUsed < idleMs) continue;
        if (pool.get(key) === made) pool.delete(key);
        conn.closed = true;
        await conn.client.close().catch(() => {});
      }
    },
    Math.min(idleMs / 2, 60_000),
  );
  sweeper.unref();
}

/** Drops a connection (a call found it dead): the next use connects again. */
async function discard(r: Resolved, conn: Connection) {
  conn.closed = true;
  const key = keyOf(r);
  const current = pool.get(key);
  if (current && (await current.catch(() => undefined)) === conn) pool.delete(key);
  await conn.client.close().catch(() => {});
}

/** Connects outside the pool, lists the tools, closes: Settings' "Test connection". */
export async function listToolsOnce(r: Resolved): Promise<McpTool[]> {
  const conn = await connect(r);
  await conn.client.close().catch(() => {});
  return conn.tools;
}

async function connect(r: Resolved): Promise<Connection> {
  const def = r.server;
  let stderr = "";
  let transport: Transport;
  if ("command" in def) {
    const stdio = new StdioClientTransport({
      command: def.command,
      args: def.args,
      // Only what a program needs to run and what the server declares: Crewdeck's own
      // environment holds its secrets (database, keys), which a server has no business with.
      env: minimalEnv(def.env),
      cwd: def.cwd,
      stderr: "pipe",
    });
    stdio.stderr?.on("data", (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-STDERR_TAIL);
    });
    transport = stdio;
  } else {
    transport = new StreamableHTTPClientTransport(new URL(def.url), {
      requestInit: { headers: def.headers },
      fetch: guardedFetch,
      // The pool reconnects; the transport's own retrying would only delay a clear failure.
      reconnectionOptions: {
        maxReconnectionDelay: 1000,
        initialReconnectionDelay: 500,
        reconnectionDelayGrowFactor: 1,
        maxRetries: 0,
      },
    });
  }
  const client = new Client({ name: "crewdeck", version: "1.0.0" });
  const conn: Connection = {
    client,
    tools: [],
    closed: false,
    secrets: r.secrets,
    stderrTail: () => stderr.trim(),
    busy: 0,
    lastUsed: Date.now(),
  };
  try {
    await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {}, {
        timeout: CONNECT_TIMEOUT_MS,
      });
      conn.tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
  } catch (err) {
    await client.close().catch(() => {});
    throw new McpConnectError(
      redact(
        `MCP server '${def.name}' could not be started or reached: ${reasonOf(err, def)}${stderr.trim() ? ` (its error output: ${stderr.trim().slice(-500)})` : ""}`,
        r.secrets,
      ),
    );
  }
  return conn;
}

function reasonOf(err: unknown, def: McpServerDef): string {
  if (errorCode(err) === "ENOENT" && "command" in def) return `command '${def.command}' not found`;
  const e = errorField(err, "cause");
  const cause = e instanceof Error ? `: ${e.message}` : "";
  return `${errorMessage(err)}${cause}`;
}

function minimalEnv(declared: Record<string, string>): Record<string, string> {
  const base: Record<string, string> = {};
  for (const k of ["PATH", "HOME", "SystemRoot", "TEMP", "TMP"]) {
    const v = process.env[k];
    if (v) base[k] = v;
  }
  return { ...base, ...declared };
}

/** Whether a failed call says the connection is gone (not that the tool itself failed). */
function diedOf(err: unknown, conn: Connection): boolean {
  if (conn.closed) return true;
  if (err instanceof McpError)
    return err.code === ErrorCode.ConnectionClosed || /session/i.test(err.message);
  if (errorField(err, "name") === "AbortError") return false;
  // The HTTP transport's own errors (refused connection, a 404 for a lost session, …).
  return true;
}

/**
 * Calls a tool on the server, connecting first if need be; if the connection turns out dead,
 * connects again and calls once more.
 */
export async function callTool(
  r: Resolved,
  name: string,
  args: Record<string, unknown>,
  { signal, timeoutMs }: { signal?: AbortSignal; timeoutMs: number },
): Promise<CallToolResult | CompatibilityCallToolResult> {
  for (let attempt = 1; ; attempt++) {
    const conn = await connection(r);
    conn.busy += 1;
    try {
      return await conn.client.callTool({ name, arguments: args }, undefined, {
        signal,
        timeout: timeoutMs,
      });
    } catch (err) {
      if (attempt > 1 || signal?.aborted || !diedOf(err, conn)) throw err;
      await discard(r, conn);
    } finally {
      conn.busy -= 1;
      conn.lastUsed = Date.now();
    }
  }
}

/** Closes every connection (stdio servers' processes end with them). */
export async function closeMcpPool() {
  const all = [...pool.values()];
  pool.clear();
  await Promise.all(
    all.map(async (p) => {
      const conn = await p.catch(() => undefined);
      await conn?.client.close().catch(() => {});
    }),
  );
}
