import { z } from "zod";
import { RunAgentInputSchema } from "@/lib/protocols/ag-ui/run";
import { endpoint } from "./endpoint";
import { read, start } from "./shared";

// The agent protocols: MCP, A2A 1.0 and AG-UI. Their bodies are the protocols' own (JSON-RPC,
// ProtoJSON, AG-UI events), described here as JSON and linked to their specifications; each
// operation says how to call it with the protocol's official client.
const tag = "Agent protocols";
const object = { type: "object", additionalProperties: true };
const jsonRpc = {
  type: "object",
  required: ["jsonrpc", "method"],
  properties: {
    jsonrpc: { const: "2.0" },
    id: { type: ["string", "integer", "null"] },
    method: { type: "string" },
    params: { type: "object" },
  },
};
const off = "Switched off (AGENT_PROTOCOLS), or no such crew.";
// The protocols serve the crews that run here, not a remote deployment's.
const localCrew = { crew: z.string().describe("The crew's slug (its folder name).") };
// A JSON-RPC endpoint. Each call names what it does: the handler checks that call's action. It
// reads the body itself: a malformed call is answered as JSON-RPC, not as a problem.
const jsonRpcCall = {
  method: "POST",
  tag,
  access: { action: "read", inside: "per-call" },
  ownBody: { schema: jsonRpc },
  problems: { 404: off },
} as const;

const MCP_SNIPPET = `\`\`\`ts
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const client = new Client({ name: "my-app", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL("https://crewdeck.example/api/mcp"), {
  requestInit: { headers: { authorization: \`Bearer \${process.env.CREWDECK_TOKEN}\` } },
}));
const { tools } = await client.listTools(); // the crews your token may start
const result = await client.callTool({ name: "research-brief", arguments: { topic: "otters" } });
\`\`\``;

const A2A_SNIPPET = `\`\`\`ts
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } from "@a2a-js/sdk/client";

const fetchImpl: typeof fetch = (url, init) =>
  fetch(url, { ...init, headers: { ...init?.headers, authorization: \`Bearer \${process.env.CREWDECK_TOKEN}\` } });
const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
  transports: [new JsonRpcTransportFactory({ fetchImpl })],
  cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
}));
const agent = await factory.createFromUrl("https://crewdeck.example/api/a2a/research-brief/");
\`\`\``;

const AG_UI_SNIPPET = `\`\`\`ts
import { HttpAgent } from "@ag-ui/client";

const agent = new HttpAgent({
  url: "https://crewdeck.example/api/ag-ui/research-brief",
  headers: { authorization: \`Bearer \${process.env.CREWDECK_TOKEN}\` },
});
agent.addMessage({ id: crypto.randomUUID(), role: "user", content: "otters" });
const { result } = await agent.runAgent(); // ends with an interrupt while a review is open
\`\`\``;

export const mcp = endpoint({
  ...jsonRpcCall,
  path: "/api/mcp",
  operationId: "mcp",
  summary: "MCP server (Streamable HTTP): each crew the token may start is a tool",
  description: `The Model Context Protocol, 2025-11-25, stateless. \`tools/list\` lists the crews and flows the token may start (none for a viewer), their inputs as \`inputSchema\`; \`tools/call\` runs one. A client that announces tasks gets the run as a task (\`tasks/get\`, \`tasks/result\`, \`tasks/list\`, \`tasks/cancel\`): a run waiting for review is \`input_required\`, with what it waits for, and goes on when a person decides in the inbox. Other calls wait for the result, with progress notifications. Stateless: GET and DELETE are 405.\n\n${MCP_SNIPPET}`,
  responses: {
    200: {
      description: "A JSON-RPC answer, or a stream of them.",
      mediaType: "text/event-stream",
      schema: { type: "string" },
    },
  },
});

export const a2aHost = endpoint({
  ...jsonRpcCall,
  path: "/api/a2a",
  operationId: "a2aHost",
  summary: "A2A 1.0 JSON-RPC at the host: runs the crew a message names in metadata.crew",
  description:
    "As a crew's endpoint, for any crew: `message.metadata.crew` names it. `GetExtendedAgentCard` answers the host's card with a skill per crew the token may start. The host's public card is at `/.well-known/agent-card.json`.",
  responses: { 200: { description: "A JSON-RPC answer.", schema: object } },
});

export const a2aCrew = endpoint({
  ...jsonRpcCall,
  path: "/api/a2a/{crew}",
  params: localCrew,
  operationId: "a2aCrew",
  summary: "A2A 1.0 JSON-RPC: the crew as an agent",
  description: `Methods: \`SendMessage\` (blocks until the task finishes or needs input, unless \`configuration.returnImmediately\`), \`SendStreamingMessage\` and \`SubscribeToTask\` (Server-Sent Events), \`GetTask\`, \`ListTasks\`, \`CancelTask\`. Send \`A2A-Version: 1.0\`. Inputs: a data part, JSON text, or plain text for the crew's one input. A run waiting for review is \`TASK_STATE_INPUT_REQUIRED\`; a message on that task is the decision ("approve", or feedback to do it again; a data part \`{approved, feedback, edited_output}\`) from a caller allowed to review, and waits for the inbox otherwise. Push notifications (\`CreateTaskPushNotificationConfig\` and the rest, or \`configuration.taskPushNotificationConfig\`) go through the webhook outbox: signed, retried, listed with \`kind=a2a\`.\n\n${A2A_SNIPPET}`,
  responses: {
    200: {
      description: "A JSON-RPC answer; the streaming methods answer `text/event-stream`.",
      schema: object,
    },
  },
});

export const a2aCrewCard = endpoint({
  method: "GET",
  path: "/api/a2a/{crew}/.well-known/agent-card.json",
  tag,
  params: localCrew,
  operationId: "a2aCrewCard",
  summary: "The crew's A2A 1.0 agent card",
  description:
    "Skills from its tasks (a flow's methods), text and JSON in and out, bearer tokens as the security scheme. Crews are not public: the card needs a token that may read.",
  access: read,
  responses: { 200: { description: "The AgentCard (ProtoJSON).", schema: object } },
  problems: { 404: off },
});

export const agUiRun = endpoint({
  method: "POST",
  path: "/api/ag-ui/{crew}",
  tag,
  params: localCrew,
  operationId: "agUiRun",
  summary: "AG-UI: run the crew, streamed as AG-UI events",
  description: `A \`RunAgentInput\` in; \`RUN_STARTED\`, \`STEP_STARTED/FINISHED\` per task, \`TEXT_MESSAGE_*\` for agent answers, \`TOOL_CALL_*\` for tool use, \`STATE_SNAPSHOT/DELTA\` for a flow's state, then \`RUN_FINISHED\` or \`RUN_ERROR\` out. Inputs come from \`forwardedProps.inputs\` or \`state.inputs\`, else the last user message. A run waiting for review ends with an \`interrupt\` outcome; the next run's \`resume\` entry answers it (\`payload: {approved, feedback, edited_output}\`, for a caller allowed to review) and the same run goes on.\n\n${AG_UI_SNIPPET}`,
  // Starting needs `start`; answering an interrupt, `review` too (checked where it decides).
  access: start,
  body: { schema: RunAgentInputSchema, invalid: 422, description: "AG-UI's RunAgentInput." },
  responses: {
    200: {
      description: "AG-UI events.",
      mediaType: "text/event-stream",
      schema: { type: "string" },
    },
  },
  problems: {
    400: "Malformed JSON.",
    404: off,
    409: "The interrupt answered was already decided.",
    422: "A RunAgentInput field is missing, or the inputs do not fit the crew.",
  },
});
