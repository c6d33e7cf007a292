import { z } from "zod";
import type { StatusResponse } from "@/lib/contract/status";
import { CODES, paramsOf, RpcError } from "./errors";
import type { Caller } from "./params";
import { addPush, newPush, PushConfigSchema, pushesOf, removePush, shownPush } from "./push";

// The push notification config methods of A2A 1.0, on tasks the caller may see.

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

export const PUSH_METHODS = new Set([
  "CreateTaskPushNotificationConfig",
  "GetTaskPushNotificationConfig",
  "ListTaskPushNotificationConfigs",
  "DeleteTaskPushNotificationConfig",
]);

type OwnRun = (caller: Caller, id: string) => Promise<StatusResponse>;

export async function pushMethod(method: string, params: unknown, caller: Caller, ownRun: OwnRun) {
  const { db, principal } = caller;
  switch (method) {
    case "CreateTaskPushNotificationConfig": {
      const config = paramsOf(PushConfigSchema.extend({ taskId: z.string().min(1) }), params);
      const run = await ownRun(caller, config.taskId);
      const push = await newPush(config);
      await addPush(db, principal, run.kickoff_id, push);
      return shownPush(run.kickoff_id, push);
    }
    case "GetTaskPushNotificationConfig": {
      const ref = paramsOf(ConfigRef, params);
      const run = await ownRun(caller, ref.taskId);
      const push = (await pushesOf(db, principal, run.kickoff_id)).find((p) => p.id === ref.id);
      if (!push) throw noConfig(ref.id);
      return shownPush(run.kickoff_id, push);
    }
    case "ListTaskPushNotificationConfigs": {
      const run = await ownRun(caller, paramsOf(TaskRef, params).taskId);
      const configs = (await pushesOf(db, principal, run.kickoff_id)).map((p) =>
        shownPush(run.kickoff_id, p),
      );
      return { configs, nextPageToken: "" };
    }
    default: {
      const ref = paramsOf(ConfigRef, params);
      const run = await ownRun(caller, ref.taskId);
      if (!(await removePush(db, principal, run.kickoff_id, ref.id))) throw noConfig(ref.id);
      return {};
    }
  }
}

const noConfig = (id: string) =>
  new RpcError(CODES.invalidParams, `No push notification config '${id}' on this task.`);
