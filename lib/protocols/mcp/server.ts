import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { Principal } from "@/lib/auth/principal";
import type { StatusResponse } from "@/lib/contract/status";
import { toInputSchema } from "@/lib/crew/input-schema";
import type { CrewDef } from "@/lib/crew/schema";
import { inputSpecsOf } from "@/lib/crew/validate-inputs";
import type { Db } from "@/lib/db/types";
import { AppError } from "@/lib/errors";
import { acquireStreamSlot, checkRateLimit } from "@/lib/http/rate-limit";
import { readJsonBody } from "@/lib/http/read-json";
import { isRecord } from "@/lib/util/field";
import { followRun } from "../follow";
import { releasedWhenDone } from "../held";
import { readRun, reviewMessage, startableCrews, startRun } from "../runs";
import { progressLine, RunTaskStore, taskOf, toolResultOf } from "./task-store";

// The MCP server at /api/mcp (Streamable HTTP, stateless): each crew and flow the caller may
// start is a tool. A call runs the crew; a client that announces tasks gets the run as a task it
// polls (a run awaiting review is input_required), any other waits for the result with progress
// notifications. Every request builds its server for its caller, so nothing outlives it but runs.

const VERSION = "1.0.0";
const BODY_LIMIT = 1024 * 1024;

/** A crew as an MCP tool: its inputs as the schema, task support optional. */
function toolOf(crew: CrewDef): Tool {
  const what = crew.flow ? "flow" : "crew";
  const tasks = crew.flow ? "" : ` Tasks: ${crew.tasks.map((t) => t.name).join(", ")}.`;
  return {
    name: crew.slug,
    title: crew.name,
    description: `${crew.description ?? `Runs the ${what} '${crew.name}'.`}${tasks} Tasks that need a person's review wait in Crewdeck's inbox.`,
    inputSchema: toInputSchema(inputSpecsOf(crew)),
    execution: { taskSupport: "optional" },
    annotations: { title: crew.name, readOnlyHint: false, openWorldHint: true },
  };
}

/** A refusal of ours as the JSON-RPC error MCP clients read. */
function asMcpError(err: unknown): never {
  if (err instanceof AppError) {
    const code =
      err.status === 400 || err.status === 404 || err.status === 422
        ? ErrorCode.InvalidParams
        : ErrorCode.InvalidRequest;
    throw new McpError(code, err.message, err.details);
  }
  throw err;
}

function buildServer(db: Db, principal: Principal) {
  const server = new Server(
    { name: "crewdeck", title: "Crewdeck", version: VERSION },
    {
      capabilities: {
        tools: { listChanged: false },
        tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      },
      taskStore: new RunTaskStore(db, principal),
      instructions:
        "Each tool runs a crew of agents. Long runs: call with a task and poll it; a task in input_required waits for a person to review an output in Crewdeck's inbox.",
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: startableCrews(principal).map(toolOf),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const crew = startableCrews(principal).find((c) => c.slug === request.params.name);
    // A crew the caller may not start is as unknown as one that does not exist.
    if (!crew) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const id = await startRun({
      db,
      crew,
      principal,
      protocol: "mcp",
      inputs: request.params.arguments ?? {},
    }).catch(asMcpError);
    const run = await readRun(db, principal, id, crew.slug);
    if (request.params.task) return { task: taskOf(run) };
    return waitForResult(db, principal, run, extra);
  });
  return server;
}

type Extra = {
  signal: AbortSignal;
  _meta?: { progressToken?: string | number };
  sendNotification: (n: {
    method: "notifications/progress";
    params: { progressToken: string | number; progress: number; total?: number; message?: string };
  }) => Promise<void>;
};

/** A call without a task: held open until the run ends, with a progress notification per change. */
async function waitForResult(
  db: Db,
  principal: Principal,
  { kickoff_id: id, crew }: StatusResponse,
  extra: Extra,
): Promise<CallToolResult> {
  const token = extra._meta?.progressToken;
  let step = 0;
  const run = await followRun(db, principal, id, {
    crew,
    signal: extra.signal,
    async onUpdate({ run }) {
      if (token === undefined) return;
      step += 1;
      await extra.sendNotification({
        method: "notifications/progress",
        params: {
          progressToken: token,
          progress: step,
          message: reviewMessage(run) ?? progressLine(run),
        },
      });
    },
  });
  return toolResultOf(run);
}

// The requests that may wait on a run: each holds a stream slot while it is open.
const HELD = new Set(["tools/call", "tasks/result"]);

/**
 * What a body costs its caller, a batch (from an older client) as much as its messages sent one
 * by one: a rate-limit token each (the route took the first) and a stream slot for each that may
 * wait on a run. 429 when short, holding nothing; else the slots' release.
 */
function chargeMessages(principal: Principal, body: unknown): () => void {
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length > 1) checkRateLimit(principal, Date.now(), messages.length - 1);
  const held = messages.filter(
    (m) => isRecord(m) && typeof m.method === "string" && HELD.has(m.method),
  );
  const releases: (() => void)[] = [];
  const releaseAll = () => {
    for (const release of releases) release();
  };
  try {
    for (const _ of held) releases.push(acquireStreamSlot(principal));
  } catch (err) {
    releaseAll();
    throw err;
  }
  return releaseAll;
}

/** Answers one request to /api/mcp for this caller. */
export async function handleMcpRequest(
  request: Request,
  db: Db,
  principal: Principal,
): Promise<Response> {
  const parsedBody =
    request.method === "POST" ? await readJsonBody(request, BODY_LIMIT) : undefined;
  const release = chargeMessages(principal, parsedBody);
  const server = buildServer(db, principal);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
  });
  await server.connect(transport);
  // Stateless: the server lives as long as this request's answer, then closes with its slot.
  return releasedWhenDone(
    await transport.handleRequest(request, { parsedBody }),
    () => {
      release();
      void server.close();
    },
    request.signal,
  );
}
