"use client";

import { useState } from "react";
import { automationApi, type Schedule } from "@/lib/api/client";
import type { SchedulePatch } from "@/lib/contract/schedules";
import { localProblems, preview, timingErrors } from "./schedule-timing";

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

/** A schedule's timing as the dialog edits it, and `start`, which saves it with the inputs. */
export function useScheduleForm(crew: string, schedule?: Schedule) {
  const [name, setName] = useState(schedule?.name ?? "");
  const [cron, setCron] = useState(schedule?.cron ?? "0 9 * * 1-5");
  const [timezone, setTimezone] = useState(() => schedule?.timezone ?? browserZone());
  const [overlap, setOverlap] = useState<string>(schedule?.overlap ?? "skip");
  const [catchUp, setCatchUp] = useState(String(schedule?.catch_up ?? 1));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const next = preview(cron, timezone);

  async function start(inputs: Record<string, string | number | boolean>) {
    setErrors({});
    const local = localProblems(name, next);
    if (Object.keys(local).length) {
      setErrors(local);
      throw new Error("fix the marked fields above.");
    }
    try {
      const body = {
        name: name.trim(),
        cron: cron.trim(),
        timezone,
        inputs,
        overlap,
        catch_up: Number(catchUp) || 1,
      };
      const api = automationApi(crew);
      const saved = schedule
        ? await api.updateSchedule(schedule.id, body as SchedulePatch)
        : await api.createSchedule(body);
      return saved.id;
    } catch (err) {
      const mine = timingErrors(err);
      if (!Object.keys(mine).length) throw err;
      setErrors(mine);
      throw new Error("fix the marked fields above.");
    }
  }

  return {
    name,
    setName,
    cron,
    setCron,
    timezone,
    setTimezone,
    overlap,
    setOverlap,
    catchUp,
    setCatchUp,
    errors,
    setErrors,
    next,
    start,
  };
}

export type ScheduleForm = ReturnType<typeof useScheduleForm>;
