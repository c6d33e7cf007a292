import { type Message, taskStateFromJSON } from "@a2a-js/sdk";
import { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import type { CrewDef } from "@/lib/crew/schema";
import type { Db } from "@/lib/db/types";
import { isRecord } from "@/lib/util/field";
import { PAGE_TOKEN } from "../runs";
import { PushConfigSchema } from "./push";
import { statusOfState } from "./task";

// The A2A 1.0 JSON-RPC params Crewdeck answers, checked at the boundary (ProtoJSON names) before
// the SDK reads them: the SDK's parsing coerces and has no limits, these refuse with a message.

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

const SendMessageParams = z.looseObject({
  tenant: z.string().optional(),
  message: MessageSchema,
  configuration: z
    .looseObject({
      returnImmediately: z.boolean().optional(),
      acceptedOutputModes: z.array(z.string()).optional(),
      historyLength: z.number().int().min(0).optional(),
      taskPushNotificationConfig: PushConfigSchema.optional(),
    })
    .optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

const TaskIdParams = z.looseObject({
  tenant: z.string().optional(),
  id: z.string().min(1, "must name a task"),
  historyLength: z.number().int().min(0).optional(),
});

export const ListTasksParams = z.looseObject({
  tenant: z.string().optional(),
  contextId: z.string().max(200).optional(),
  status: z
    .string()
    .refine((s) => statusOfState(taskStateFromJSON(s)) !== undefined, {
      error: (issue) => `${String(issue.input)} is not a TaskState.`,
    })
    .optional(),
  pageSize: z.number().int().min(1, "must be 1 to 100").max(100, "must be 1 to 100").optional(),
  pageToken: z.string().regex(PAGE_TOKEN, "must be a token from an earlier page").optional(),
});

const ConfigRef = z.looseObject({
  tenant: z.string().optional(),
  taskId: z.string().min(1),
  id: z.string().min(1),
});

const TaskRef = z.looseObject({
  tenant: z.string().optional(),
  taskId: z.string().min(1),
  pageSize: z.number().int().optional(),
  pageToken: z.string().optional(),
});

/** Each method's params schema: a method not here is not one of A2A 1.0's. */
export const PARAMS = new Map<string, z.ZodType>([
  ["GetExtendedAgentCard", z.looseObject({ tenant: z.string().optional() })],
  ["SendMessage", SendMessageParams],
  ["SendStreamingMessage", SendMessageParams],
  ["GetTask", TaskIdParams],
  ["CancelTask", TaskIdParams],
  ["SubscribeToTask", TaskIdParams],
  ["ListTasks", ListTasksParams],
  ["CreateTaskPushNotificationConfig", PushConfigSchema.extend({ taskId: z.string().min(1) })],
  ["GetTaskPushNotificationConfig", ConfigRef],
  ["DeleteTaskPushNotificationConfig", ConfigRef],
  ["ListTaskPushNotificationConfigs", TaskRef],
]);

/** A message's words (its text parts) and its data (the first object among its data parts). */
export function contentOf(message: Message) {
  const text = message.parts
    .flatMap((p) => (p.content?.$case === "text" ? [p.content.value] : []))
    .join("\n");
  const data = message.parts
    .map((p) => (p.content?.$case === "data" ? p.content.value : undefined))
    .find(isRecord);
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
