import { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import type { CrewDef } from "@/lib/crew/schema";
import type { Db } from "@/lib/db/types";
import { isRecord } from "@/lib/util/field";
import { PAGE_TOKEN } from "../runs";

// The A2A 1.0 JSON-RPC requests Crewdeck answers, checked at the boundary (ProtoJSON names).

const PartSchema = z.looseObject({
  text: z.string().optional(),
  data: z.unknown().optional(),
  url: z.string().optional(),
  raw: z.string().optional(),
  mediaType: z.string().optional(),
  filename: z.string().optional(),
});

const MessageSchema = z.looseObject({
  messageId: z.string().min(1, "must not be empty"),
  role: z.enum(["ROLE_USER", "ROLE_AGENT"], { error: "must be ROLE_USER or ROLE_AGENT" }),
  parts: z.array(PartSchema).min(1, "must hold at least one part").max(100),
  taskId: z.string().optional(),
  contextId: z.string().max(200).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

export const SendMessageParams = z.looseObject({
  tenant: z.string().optional(),
  message: MessageSchema,
  configuration: z
    .looseObject({
      returnImmediately: z.boolean().optional(),
      acceptedOutputModes: z.array(z.string()).optional(),
      historyLength: z.number().int().min(0).optional(),
      taskPushNotificationConfig: z.unknown().optional(),
    })
    .optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type SendMessage = z.infer<typeof SendMessageParams>;

export const TaskIdParams = z.looseObject({
  tenant: z.string().optional(),
  id: z.string().min(1, "must name a task"),
  historyLength: z.number().int().min(0).optional(),
});

export const ListTasksParams = z.looseObject({
  tenant: z.string().optional(),
  contextId: z.string().max(200).optional(),
  status: z.string().optional(),
  pageSize: z.number().int().min(1, "must be 1 to 100").max(100, "must be 1 to 100").optional(),
  pageToken: z.string().regex(PAGE_TOKEN, "must be a token from an earlier page").optional(),
});

export const RpcRequest = z.object({
  jsonrpc: z.literal("2.0"),
  id: z.union([z.string(), z.number(), z.null()]).optional(),
  method: z.string().min(1),
  params: z.unknown().optional(),
});
export type RpcId = string | number | null;

/** A message's words (its text parts) and its data (the first object among its data parts). */
export function contentOf(message: SendMessage["message"]) {
  const text = message.parts.flatMap((p) => (p.text !== undefined ? [p.text] : [])).join("\n");
  const data = message.parts.map((p) => p.data).find(isRecord);
  return { text, data };
}

/** Who asks an A2A endpoint, and of which crew. */
export type Caller = {
  db: Db;
  principal: Principal;
  /** The crew of a crew's endpoint; the host's names it in each message. */
  crew?: CrewDef;
  request: Request;
  signal: AbortSignal;
};
