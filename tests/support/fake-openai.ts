import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Json } from "./api";

// A loopback server speaking OpenAI's chat-completions wire format. The requested model name picks
// the behaviour, so crews in the fixtures can ask for what they need:
//   tool-then-answer  first a word_count tool call, then an answer quoting the tool result
//   always-500        HTTP 500 every time
//   hang              never answers (for time-outs)
//   parallel-calls    two word_count calls in one turn, then an answer quoting both results; a
//                     turn whose calls are not each answered by a tool message gets HTTP 400, as
//                     OpenAI answers
//
// With `azure`, it speaks Azure OpenAI's shape instead: POST
// /openai/deployments/<deployment>/chat/completions?api-version=<version> with an `api-key` header
// (401 without the right key, 404 for any other path or version); the deployment is the model.
// With `scripted`, a test answers the requests it chooses itself (the assistant message and the
// finish reason), or holds them unanswered ("hold": a model call in flight for as long as the test
// needs); those it returns nothing for get the behaviours above.
export type FakeOpenAI = {
  url: string;
  requests: { model: string; body: Json; path: string; headers: http.IncomingHttpHeaders }[];
  close: () => Promise<void>;
};

export async function startFakeOpenAI(
  options: {
    azure?: { apiKey: string; apiVersion: string };
    scripted?: (body: {
      model: string;
      messages: Record<string, unknown>[];
    }) => { message: Record<string, unknown>; finish: string } | "hold" | undefined;
  } = {},
): Promise<FakeOpenAI> {
  const requests: FakeOpenAI["requests"] = [];
  const server = http.createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const url = new URL(req.url ?? "/", "http://fake");
    const azure = options.azure;
    const deployment = /^\/openai\/deployments\/([^/]+)\/chat\/completions$/.exec(
      url.pathname,
    )?.[1];
    const routed = azure
      ? deployment && url.searchParams.get("api-version") === azure.apiVersion
      : url.pathname === "/v1/chat/completions";
    if (req.method !== "POST" || !routed) {
      res.writeHead(404).end();
      return;
    }
    if (azure && req.headers["api-key"] !== azure.apiKey) {
      res
        .writeHead(401, { "content-type": "application/json" })
        .end(JSON.stringify({ error: { code: "401", message: "Access denied: bad api-key" } }));
      return;
    }
    const body = JSON.parse(raw);
    if (azure) body.model = decodeURIComponent(deployment as string);
    requests.push({ model: body.model, body, path: req.url ?? "", headers: req.headers });
    const reply = (message: Record<string, unknown>, finish: string) =>
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          id: `chatcmpl-${requests.length}`,
          object: "chat.completion",
          created: Math.floor(Date.now() / 1000),
          model: body.model,
          choices: [
            { index: 0, message: { role: "assistant", ...message }, finish_reason: finish },
          ],
          usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
        }),
      );
    const scripted = options.scripted?.(body);
    if (scripted === "hold") return; // until the client gives up or the server closes
    if (scripted) {
      reply(scripted.message, scripted.finish);
      return;
    }
    switch (body.model) {
      case "always-500":
        res
          .writeHead(500, { "content-type": "application/json" })
          .end(JSON.stringify({ error: { message: "upstream exploded", type: "server_error" } }));
        return;
      case "hang":
        return; // the client's time-out ends this
      case "parallel-calls": {
        const asked = body.messages.flatMap((m: { role: string; tool_calls?: { id: string }[] }) =>
          m.role === "assistant" ? (m.tool_calls ?? []).map((c) => c.id) : [],
        );
        const answered = body.messages.flatMap((m: { role: string; tool_call_id?: string }) =>
          m.role === "tool" ? [m.tool_call_id] : [],
        );
        const unanswered = asked.filter((id: string) => !answered.includes(id));
        if (unanswered.length) {
          res.writeHead(400, { "content-type": "application/json" }).end(
            JSON.stringify({
              error: {
                message: `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. Missing: ${unanswered.join(", ")}`,
                type: "invalid_request_error",
              },
            }),
          );
          return;
        }
        if (!asked.length) {
          const call = (id: string, text: string) => ({
            id,
            type: "function",
            function: { name: "word_count", arguments: JSON.stringify({ text }) },
          });
          reply(
            {
              content: null,
              tool_calls: [call("call_a", "alpha beta"), call("call_b", "gamma delta epsilon")],
            },
            "tool_calls",
          );
          return;
        }
        const results = body.messages
          .filter((m: { role: string }) => m.role === "tool")
          .map((m: { tool_call_id: string; content: string }) => `${m.tool_call_id}=${m.content}`);
        reply({ content: `Both counted. ${results.join(" | ")}` }, "stop");
        return;
      }
      default: {
        const toolMessage = body.messages.find((m: { role: string }) => m.role === "tool");
        if (!toolMessage && body.tools?.length) {
          reply(
            {
              content: "Let me count the words first.",
              tool_calls: [
                {
                  id: "call_1",
                  type: "function",
                  function: {
                    name: "word_count",
                    arguments: JSON.stringify({ text: "one two three" }),
                  },
                },
              ],
            },
            "tool_calls",
          );
        } else {
          reply(
            {
              content: `Final answer from ${body.model}. Tool said: ${toolMessage?.content ?? "nothing"}`,
            },
            "stop",
          );
        }
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: options.azure ? `http://127.0.0.1:${port}` : `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
