import type { SchedulePatch } from "@/lib/contract/schedules";
import type { TriggerPatch } from "@/lib/contract/triggers";
import { contract, noContent, request } from "./request";

const scheduleSchemas = contract(() => import("@/lib/contract/schedules"));
const triggerSchemas = contract(() => import("@/lib/contract/triggers"));

export type { Schedule, ScheduleFire } from "@/lib/contract/schedules";
export type { Trigger, TriggerEvent } from "@/lib/contract/triggers";

/** A crew's schedules and triggers: runs that start themselves. */
export function automationApi(crew: string) {
  const base = `/api/crews/${encodeURIComponent(crew)}`;
  return {
    schedules: () =>
      request(scheduleSchemas("SchedulesResponseSchema"), "GET", `${base}/schedules`),
    createSchedule: (body: {
      name: string;
      cron: string;
      timezone: string;
      inputs: Record<string, unknown>;
      overlap: string;
      catch_up: number;
    }) => request(scheduleSchemas("ScheduleSchema"), "POST", `${base}/schedules`, body),
    updateSchedule: (id: string, body: SchedulePatch) =>
      request(scheduleSchemas("ScheduleSchema"), "PATCH", `${base}/schedules/${id}`, body),
    deleteSchedule: (id: string) => request(noContent, "DELETE", `${base}/schedules/${id}`),
    fires: (id: string) =>
      request(
        scheduleSchemas("ScheduleFiresResponseSchema"),
        "GET",
        `${base}/schedules/${id}/fires`,
      ),
    triggers: () => request(triggerSchemas("TriggersResponseSchema"), "GET", `${base}/triggers`),
    createTrigger: (body: {
      name: string;
      signature: string;
      mapping: Record<string, string>;
      inputs: Record<string, unknown>;
      concurrency: { key: string; policy: string } | null;
    }) => request(triggerSchemas("CreatedTriggerSchema"), "POST", `${base}/triggers`, body),
    updateTrigger: (id: string, body: TriggerPatch) =>
      request(triggerSchemas("TriggerSchema"), "PATCH", `${base}/triggers/${id}`, body),
    deleteTrigger: (id: string) => request(noContent, "DELETE", `${base}/triggers/${id}`),
    rotateSecret: (id: string) =>
      request(triggerSchemas("CreatedTriggerSchema"), "POST", `${base}/triggers/${id}/secret`),
    events: (id: string) =>
      request(
        triggerSchemas("TriggerEventsResponseSchema"),
        "GET",
        `${base}/triggers/${id}/events`,
      ),
  };
}
