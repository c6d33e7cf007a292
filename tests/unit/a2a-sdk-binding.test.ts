import path from "node:path";
import { AgentCard, Message, StreamResponse, Task, TaskState, taskStateToJSON } from "@a2a-js/sdk";
import { JsonRpcTransportHandler } from "@a2a-js/sdk/server";
import { describe, expect, it } from "vitest";
import { EXECUTION_STATUSES } from "@/lib/contract/states";
import type { StatusResponse } from "@/lib/contract/status";
import { loadCrews } from "@/lib/crew/load-crews";
import { AppError } from "@/lib/errors";
import { hostCard } from "@/lib/protocols/a2a/card";
import { a2aErrorOf } from "@/lib/protocols/a2a/errors";
import { contentOf } from "@/lib/protocols/a2a/params";
import { A2A_STATE } from "@/lib/protocols/a2a/push-payloads";
import { majorMinor, precheck } from "@/lib/protocols/a2a/rpc";
import { pushed } from "@/lib/protocols/a2a/stream";
import {
  artifactUpdateOf,
  statusOfState,
  statusUpdateOf,
  taskOf,
  taskStateOf,
} from "@/lib/protocols/a2a/task";
import { a2aProblems } from "../support/a2a-schema";

// A2A's JSON-RPC binding is the SDK's JsonRpcTransportHandler over our runs: what is ours is how
// a run becomes the SDK's Task, the checks before the SDK reads a request, and our errors as its.

const ID = "7f0c1a9e-0000-4000-8000-000000000001";

function run(over: Partial<StatusResponse>): StatusResponse {
  return {
    kickoff_id: ID,
    crew: "review",
    status: "running",
    result: null,
    error: null,
    meta: { a2a_context: "ctx-1" },
    tasks: [],
    pending_human_inputs: [],
    updated_at: "2026-01-01T00:00:00.000Z",
    ...over,
  } as StatusResponse;
}

const review = {
  task_id: "draft",
  kind: "output",
  output: "A draft about otters.",
  attempt: 1,
} as StatusResponse["pending_human_inputs"][number];

const rpcError = (err: unknown) => JsonRpcTransportHandler.mapToJSONRPCError(err);

describe("a run as the SDK's Task", () => {
  it("a completed run: its state, its result as an artifact, the ProtoJSON the specification wants", () => {
    const done = run({
      status: "completed",
      result: "Otters hold hands.",
      tasks: [{ task_id: "draft", output: "Otters hold hands." }] as StatusResponse["tasks"],
    });
    const json = Task.toJSON(taskOf(done));
    expect(a2aProblems("Task", json)).toEqual([]);
    expect(json).toEqual({
      id: ID,
      contextId: "ctx-1",
      status: { state: "TASK_STATE_COMPLETED", timestamp: "2026-01-01T00:00:00.000Z" },
      artifacts: [
        {
          artifactId: `${ID}:result`,
          name: "result",
          description: "The result of 'review'",
          parts: [
            { text: "Otters hold hands.", mediaType: "text/plain" },
            {
              data: { kickoff_id: ID, tasks: [{ task_id: "draft", output: "Otters hold hands." }] },
              mediaType: "application/json",
            },
          ],
        },
      ],
      metadata: { crew: "review", status: "completed", kickoff_id: ID },
    });
  });

  it("a run awaiting review is input-required, the review in the status message", () => {
    const waiting = run({ status: "pending_human_input", pending_human_inputs: [review] });
    const json = Task.toJSON(taskOf(waiting));
    expect(a2aProblems("Task", json)).toEqual([]);
    expect(json).toMatchObject({
      status: {
        state: "TASK_STATE_INPUT_REQUIRED",
        message: {
          role: "ROLE_AGENT",
          taskId: ID,
          contextId: "ctx-1",
          parts: [{ text: expect.stringMatching(/task 'draft' awaits review/) }],
          metadata: { review: { task_id: "draft", kind: "output", attempt: 1 } },
        },
      },
    });
    expect(json).not.toHaveProperty("artifacts");
  });

  it("its updates are StreamResponses: a status change, the result as the last chunk", () => {
    const done = run({ status: "completed", result: "r" });
    const status = StreamResponse.toJSON(statusUpdateOf(done));
    const artifact = StreamResponse.toJSON(artifactUpdateOf(done));
    for (const e of [status, artifact]) expect(a2aProblems("StreamResponse", e)).toEqual([]);
    expect(status).toMatchObject({
      statusUpdate: { taskId: ID, metadata: { status: "completed" } },
    });
    expect(artifact).toMatchObject({ artifactUpdate: { lastChunk: true } });
  });

  it("each status has one TaskState, named as the pushes name it, and back", () => {
    for (const status of EXECUTION_STATUSES) {
      expect(taskStateToJSON(taskStateOf(status))).toBe(A2A_STATE[status]);
      expect(statusOfState(taskStateOf(status))).toBe(status);
    }
    expect(statusOfState(TaskState.TASK_STATE_UNSPECIFIED)).toBeUndefined();
    expect(statusOfState(TaskState.TASK_STATE_AUTH_REQUIRED)).toBeUndefined();
  });

  it("a message's words are its text parts, its data the first object among its data parts", () => {
    const message = Message.fromJSON({
      messageId: "m",
      role: "ROLE_USER",
      parts: [{ text: "one" }, { data: "words" }, { data: { subject: "owls" } }, { text: "two" }],
    });
    expect(contentOf(message)).toEqual({ text: "one\ntwo", data: { subject: "owls" } });
  });
});

describe("before the SDK reads a request", () => {
  it("a version is matched on major.minor; another one, or 0.3's method names, is refused", () => {
    expect(majorMinor(" 1.0.2 ")).toBe("1.0");
    expect(precheck("GetTask", { id: "t" }, "1.0.2")).toBeUndefined();
    expect(precheck("GetTask", { id: "t" }, null)).toBeUndefined();
    for (const [method, version] of [
      ["GetTask", "0.3"],
      ["GetTask", "1.1"],
      ["message/send", "1.0"],
      ["tasks/get", null],
    ] as const)
      expect(rpcError(precheck(method, { id: "t" }, version))).toMatchObject({
        code: -32009,
        message: /speaks A2A 1.0 only/,
      });
  });

  it("params past our limits are invalid params, each field named", () => {
    expect(rpcError(precheck("ListTasks", { pageToken: "1e3" }, "1.0"))).toMatchObject({
      code: -32602,
      message: "Invalid params: pageToken must be a token from an earlier page",
      data: [{ reason: "INVALID_PARAMS", metadata: { pageToken: expect.any(String) } }],
    });
    expect(rpcError(precheck("ListTasks", { status: "TASK_STATE_NAPPING" }, "1.0"))).toMatchObject({
      code: -32602,
      message: "Invalid params: status TASK_STATE_NAPPING is not a TaskState.",
    });
    const parts = Array.from({ length: 101 }, () => ({ text: "x" }));
    const send = { message: { messageId: "m", role: "ROLE_USER", parts } };
    expect(rpcError(precheck("SendMessage", send, "1.0"))).toMatchObject({
      code: -32602,
      message: /^Invalid params: message.parts /,
    });
    expect(precheck("ListTasks", { status: "TASK_STATE_WORKING", pageSize: 100 }, "1.0")).toBe(
      undefined,
    );
    expect(precheck("GetExtendedAgentCard", undefined, "1.0")).toBeUndefined();
  });

  it("an unknown method is not found, with or without params", () => {
    for (const params of [undefined, {}])
      expect(rpcError(precheck("tasks/list", params, "1.0"))).toEqual({
        code: -32601,
        message: "Method not found: tasks/list.",
      });
  });
});

describe("our errors as the SDK's", () => {
  it("keep A2A's codes, our messages, and the HTTP status of a refusal or a limit", () => {
    const answer = (err: AppError) => {
      const { error, status } = a2aErrorOf(err);
      return { ...rpcError(error), status };
    };
    expect(answer(new AppError("forbidden", 403, "No."))).toEqual({
      code: -32600,
      message: "No.",
      status: 403,
    });
    expect(answer(new AppError("rate", 429, "Too many."))).toMatchObject({
      code: -32600,
      status: 429,
    });
    expect(answer(new AppError("conflict", 409, "Full."))).toMatchObject({
      code: -32004,
      message: "Full.",
      status: 200,
    });
    const details = { errors: [{ path: "url", message: "refused" }] };
    expect(answer(new AppError("bad-request", 400, "Bad url.", details))).toMatchObject({
      code: -32602,
      message: "Bad url.",
      data: [{ reason: "INVALID_PARAMS", metadata: { url: "refused" } }],
      status: 200,
    });
  });
});

describe("a followed run's updates as a stream", () => {
  it("yields what was emitted, in order, and ends when the follow ends, even failing", async () => {
    const all = async (source: Parameters<typeof pushed<number>>[0]) => {
      const out: number[] = [];
      for await (const n of pushed(source)) out.push(n);
      return out;
    };
    expect(
      await all(async (emit) => {
        emit(1);
        await new Promise((r) => setTimeout(r, 5));
        emit(2);
        emit(3);
      }),
    ).toEqual([1, 2, 3]);
    expect(
      await all(async (emit) => {
        emit(1);
        throw new Error("log unreadable");
      }),
    ).toEqual([1]);
  });
});

describe("the extended card, as the SDK writes it", () => {
  it("is the host's card with the crews, an empty scope list left out as ProtoJSON does", () => {
    const crews = [...loadCrews(path.resolve("tests/fixtures/crews")).crews.values()];
    const card = hostCard(crews);
    const written = AgentCard.toJSON(AgentCard.fromJSON(card));
    expect(a2aProblems("AgentCard", written)).toEqual([]);
    expect(written).toEqual({ ...card, securityRequirements: [{ schemes: { bearer: {} } }] });
  });
});
