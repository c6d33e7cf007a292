"use client";

import { useMemo } from "react";
import { Button } from "@/components/ui/button";
import { Field, fieldAria } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { SelectField } from "@/components/ui/select-field";
import { fireTime } from "./fire-time";
import { NameField, TextField } from "./form-bits";
import type { ScheduleForm } from "./use-schedule-form";

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

type Props = { form: ScheduleForm; id: (field: string) => string };

/** The schedule's own fields, above the crew's inputs: name, when, zone, overlap, catch-up. */
export function ScheduleFields({ form, id }: Props) {
  return (
    <div className="grid gap-4 border-b pb-4">
      <NameField id={id("name")} form={form} placeholder="e.g. Morning brief" />
      <CronField form={form} id={id} />
      <ZoneField form={form} id={id} />
      {"times" in form.next && (
        <div className="grid gap-1 text-sm" aria-live="polite">
          <span className="font-medium">Next five runs</span>
          <ol className="m-0 grid list-none gap-0.5 p-0 text-muted-foreground tabular-nums">
            {form.next.times.map((t) => (
              <li key={t.toISOString()}>{fireTime(t, form.timezone)}</li>
            ))}
          </ol>
        </div>
      )}
      <div className="grid items-start gap-4 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <SelectField
          id={id("overlap")}
          label="If the last run is still going"
          value={form.overlap}
          onChange={(e) => form.setOverlap(e.target.value)}
          options={OVERLAP}
        />
        <TextField
          id={id("catch_up")}
          label="Catch up"
          error={form.errors.catch_up}
          help="Missed runs still started after downtime (the latest)."
          type="number"
          min={1}
          max={100}
          value={form.catchUp}
          setValue={form.setCatchUp}
        />
      </div>
    </div>
  );
}

function CronField({ form, id }: Props) {
  const { cron, next, errors } = form;
  return (
    <Field
      id={id("cron")}
      label="When"
      required
      error={errors.cron ?? ("problem" in next && next.problem ? next.problem : undefined)}
      help="Five fields: minute hour day-of-month month day-of-week."
    >
      <Input
        {...fieldAria(id("cron"), { help: true, error: errors.cron })}
        className="font-mono"
        value={cron}
        onChange={(e) => {
          form.setCron(e.target.value);
          form.setErrors(({ cron: _, ...rest }) => rest);
        }}
      />
      <div className="flex flex-wrap gap-1.5">
        {PRESETS.map((p) => (
          <Button
            key={p.cron}
            size="sm"
            variant={p.cron === cron ? "secondary" : "ghost"}
            aria-pressed={p.cron === cron}
            onClick={() => form.setCron(p.cron)}
          >
            {p.label}
          </Button>
        ))}
      </div>
    </Field>
  );
}

function ZoneField({ form, id }: Props) {
  const zones = useMemo(
    () => (typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : []),
    [],
  );
  return (
    <TextField
      id={id("timezone")}
      label="Time zone"
      required
      error={form.errors.timezone}
      list={id("zones")}
      value={form.timezone}
      setValue={form.setTimezone}
      after={
        <datalist id={id("zones")}>
          {zones.map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
      }
    />
  );
}
