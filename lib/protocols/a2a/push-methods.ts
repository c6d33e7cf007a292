import type {
  DeleteTaskPushNotificationConfigRequest,
  GetTaskPushNotificationConfigRequest,
  ListTaskPushNotificationConfigsResponse,
  TaskPushNotificationConfig,
} from "@a2a-js/sdk";
import { RequestMalformedError } from "@a2a-js/sdk/errors";
import type { StatusResponse } from "@/lib/contract/status";
import type { ProtocolPush } from "@/lib/run-model/types";
import type { Caller } from "./params";
import { addPush, newPush, pushesOf, removePush } from "./push";

// The push notification config methods of A2A 1.0, on tasks the caller may see, in the SDK's
// types (its JSON-RPC handler reads the params and writes the answers).

/** A config as answered: where it sends — never the credentials or the token. */
const shownPush = (taskId: string, push: ProtocolPush): TaskPushNotificationConfig => ({
  tenant: "",
  id: push.id,
  taskId,
  url: push.url,
  token: "",
  authentication: undefined,
});

/** A client's config as our push endpoint (checked and sealed); empty strings are absent. */
export function pushOf(config: TaskPushNotificationConfig): Promise<ProtocolPush> {
  const auth = config.authentication;
  return newPush({
    url: config.url,
    ...(config.token ? { token: config.token } : {}),
    ...(auth
      ? {
          authentication: {
            scheme: auth.scheme,
            ...(auth.credentials ? { credentials: auth.credentials } : {}),
          },
        }
      : {}),
  });
}

export async function createConfig(
  caller: Caller,
  run: StatusResponse,
  config: TaskPushNotificationConfig,
): Promise<TaskPushNotificationConfig> {
  const push = await pushOf(config);
  await addPush(caller.db, caller.principal, run.kickoff_id, push);
  return shownPush(run.kickoff_id, push);
}

export async function getConfig(
  caller: Caller,
  run: StatusResponse,
  ref: GetTaskPushNotificationConfigRequest,
): Promise<TaskPushNotificationConfig> {
  const pushes = await pushesOf(caller.db, caller.principal, run.kickoff_id);
  const push = pushes.find((p) => p.id === ref.id);
  if (!push) throw noConfig(ref.id);
  return shownPush(run.kickoff_id, push);
}

export async function listConfigs(
  caller: Caller,
  run: StatusResponse,
): Promise<ListTaskPushNotificationConfigsResponse> {
  const pushes = await pushesOf(caller.db, caller.principal, run.kickoff_id);
  return { configs: pushes.map((p) => shownPush(run.kickoff_id, p)), nextPageToken: "" };
}

export async function deleteConfig(
  caller: Caller,
  run: StatusResponse,
  ref: DeleteTaskPushNotificationConfigRequest,
): Promise<void> {
  if (!(await removePush(caller.db, caller.principal, run.kickoff_id, ref.id)))
    throw noConfig(ref.id);
}

const noConfig = (id: string) =>
  new RequestMalformedError(`No push notification config '${id}' on this task.`);
