"use client";

import { useQueryClient } from "@tanstack/react-query";
import { CalendarClock, Pencil } from "lucide-react";
import { useId, useMemo, useState } from "react";
import { KickoffForm } from "@/components/crews/kickoff-form";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { Field, fieldAria } from "@/components/ui/field";
import { Input, Select } from "@/components/ui/input";
import { toast } from "@/components/ui/toast";
import { ApiError, automationApi, type Schedule } from "@/lib/api/client";
import type { SchedulePatch } from "@/lib/contract/schedules";
import { cronProblem, nextFireTimes } from "@/lib/schedules/cron";
import { fireTime } from "./fire-time";

const PRESETS = [
  { label: "Weekdays 9:00", cron: "0 9 * * 1-5" },
  { label: "Every day 6:00", cron: "0 6 * * *" },
  { label: "Every hour", cron: "0 * * * *" },
  { label: "Mondays 8:00", cron: "0 8 * * 1" },
];

const OVERLAP = [
  { value: "skip", label: "Skip this one" },
  { value: "queue", label: "Start it when the last one ends" },
  { value: "allow", label: "Start it anyway (both run)" },
];

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

/** The next five times, worked out here as the server will (croner, five fields), or why not. */
function preview(cron: string, timezone: string): { times: Date[] } | { problem: string } {
  const problem = cronProblem(cron);
  if (problem) return { problem };
  try {
    return { times: nextFireTimes(cron.trim(), timezone, new Date(), 5) };
  } catch {
    // A zone this browser does not know: the field says so when the server does.
    return { problem: "" };
  }
}

/**
 * "New schedule" (or, given one, "Edit"): when (cron, zone, with presets and the next five times),
 * then the inputs.
 */
export function ScheduleDialog({ crew, schedule }: { crew: string; schedule?: Schedule }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState(schedule?.name ?? "");
  const [cron, setCron] = useState(schedule?.cron ?? "0 9 * * 1-5");
  const [timezone, setTimezone] = useState(() => schedule?.timezone ?? browserZone());
  const [overlap, setOverlap] = useState<string>(schedule?.overlap ?? "skip");
  const [catchUp, setCatchUp] = useState(String(schedule?.catch_up ?? 1));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const queryClient = useQueryClient();
  const base = useId();
  const zones = useMemo(
    () => (typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : []),
    [],
  );
  const next = preview(cron, timezone);

  async function start(inputs: Record<string, string | number | boolean>) {
    setErrors({});
    const local: Record<string, string> = {};
    if (!name.trim()) local.name = "Name it: it is shown on every run it starts.";
    if ("problem" in next && next.problem) local.cron = next.problem;
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
      // The timing's refusals go on its fields; the inputs' are the form's own.
      const mine: Record<string, string> = {};
      if (err instanceof ApiError)
        for (const e of err.problem.errors ?? [])
          if (["name", "cron", "timezone", "overlap", "catch_up"].includes(e.path))
            mine[e.path] = e.message;
      if (!Object.keys(mine).length) throw err;
      setErrors(mine);
      throw new Error("fix the marked fields above.");
    }
  }

  const id = (field: string) => `${base}-${field}`;
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      {schedule ? (
        <Button size="sm" variant="ghost" onClick={() => setOpen(true)}>
          <Pencil aria-hidden />
          Edit
        </Button>
      ) : (
        <Button size="sm" variant="primary" onClick={() => setOpen(true)}>
          <CalendarClock aria-hidden />
          New schedule
        </Button>
      )}
      <DialogContent
        title={schedule ? `Edit “${schedule.name}”` : "New schedule"}
        description="The crew runs with these inputs at each time the expression names, in the time zone you choose."
        className="sm:max-w-xl"
      >
        <KickoffForm
          crew={crew}
          prefill={schedule?.inputs}
          submitLabel="Save the schedule"
          failure="The schedule was not saved"
          start={start}
          onStarted={() => {
            setOpen(false);
            toast.success(`Schedule “${name.trim()}” saved.`);
            void queryClient.invalidateQueries({ queryKey: ["crews", crew, "schedules"] });
            if (!schedule) setName("");
          }}
          lead={
            <div className="grid gap-4 border-b pb-4">
              <Field id={id("name")} label="Name" required error={errors.name}>
                <Input
                  {...fieldAria(id("name"), { error: errors.name })}
                  value={name}
                  placeholder="e.g. Morning brief"
                  onChange={(e) => setName(e.target.value)}
                />
              </Field>
              <Field
                id={id("cron")}
                label="When"
                required
                error={
                  errors.cron ?? ("problem" in next && next.problem ? next.problem : undefined)
                }
                help="Five fields: minute hour day-of-month month day-of-week."
              >
                <Input
                  {...fieldAria(id("cron"), { help: true, error: errors.cron })}
                  className="font-mono"
                  value={cron}
                  onChange={(e) => {
                    setCron(e.target.value);
                    setErrors(({ cron: _, ...rest }) => rest);
                  }}
                />
                <div className="flex flex-wrap gap-1.5">
                  {PRESETS.map((p) => (
                    <Button
                      key={p.cron}
                      size="sm"
                      variant={p.cron === cron ? "secondary" : "ghost"}
                      aria-pressed={p.cron === cron}
                      onClick={() => setCron(p.cron)}
                    >
                      {p.label}
                    </Button>
                  ))}
                </div>
              </Field>
              <Field id={id("timezone")} label="Time zone" required error={errors.timezone}>
                <Input
                  {...fieldAria(id("timezone"), { error: errors.timezone })}
                  list={id("zones")}
                  value={timezone}
                  onChange={(e) => setTimezone(e.target.value)}
                />
                <datalist id={id("zones")}>
                  {zones.map((z) => (
                    <option key={z} value={z} />
                  ))}
                </datalist>
              </Field>
              {"times" in next && (
                <div className="grid gap-1 text-sm" aria-live="polite">
                  <span className="font-medium">Next five runs</span>
                  <ol className="m-0 grid list-none gap-0.5 p-0 text-muted-foreground tabular-nums">
                    {next.times.map((t) => (
                      <li key={t.toISOString()}>{fireTime(t, timezone)}</li>
                    ))}
                  </ol>
                </div>
              )}
              <div className="grid items-start gap-4 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
                <Field id={id("overlap")} label="If the last run is still going">
                  <Select
                    id={id("overlap")}
                    value={overlap}
                    onChange={(e) => setOverlap(e.target.value)}
                  >
                    {OVERLAP.map((o) => (
                      <option key={o.value} value={o.value}>
                        {o.label}
                      </option>
                    ))}
                  </Select>
                </Field>
                <Field
                  id={id("catch_up")}
                  label="Catch up"
                  error={errors.catch_up}
                  help="Missed runs still started after downtime (the latest)."
                >
                  <Input
                    {...fieldAria(id("catch_up"), { help: true, error: errors.catch_up })}
                    type="number"
                    min={1}
                    max={100}
                    value={catchUp}
                    onChange={(e) => setCatchUp(e.target.value)}
                  />
                </Field>
              </div>
            </div>
          }
        />
      </DialogContent>
    </Dialog>
  );
}
