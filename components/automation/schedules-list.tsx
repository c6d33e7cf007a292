"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { CalendarClock, ChevronDown } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { RelativeTime } from "@/components/ui/relative-time";
import { Skeleton } from "@/components/ui/skeleton";
import { automationApi, type Schedule, type ScheduleFire } from "@/lib/api/client";
import { shortId } from "@/lib/format/id";
import { fireTime } from "./fire-time";
import { ListSection } from "./list-section";
import { DeleteButton, PauseButton } from "./row-actions";
import { ScheduleDialog } from "./schedule-dialog";

const OVERLAP: Record<Schedule["overlap"], string> = {
  skip: "skips a time while its last run goes on",
  queue: "queues behind its last run",
  allow: "runs alongside its last run",
};

const FIRE_TONE: Record<ScheduleFire["outcome"], BadgeTone> = {
  started: "success",
  queued: "info",
  skipped: "neutral",
  missed: "warning",
  failed: "danger",
};

/** The crew's schedules: when each runs next, what its last due time did; pause, resume, delete. */
export function SchedulesList({ crew, canEdit }: { crew: string; canEdit: boolean }) {
  const { data, error } = useQuery({
    queryKey: ["crews", crew, "schedules"],
    queryFn: () => automationApi(crew).schedules(),
    refetchInterval: 30_000,
  });
  return (
    <ListSection
      id="schedules"
      title="Schedules"
      action={canEdit && <ScheduleDialog crew={crew} />}
      error={error}
      loading={!data}
      empty={
        data && data.schedules.length === 0 ? (
          <EmptyState icon={CalendarClock} title="No schedules">
            {canEdit
              ? "Run this crew on a rhythm — every weekday at 9:00, every hour — in your time zone."
              : "An operator can make this crew run on a rhythm."}
          </EmptyState>
        ) : null
      }
    >
      {data?.schedules.map((s) => (
        <ScheduleRow key={s.id} crew={crew} schedule={s} canEdit={canEdit} />
      ))}
    </ListSection>
  );
}

function ScheduleRow({
  crew,
  schedule: s,
  canEdit,
}: {
  crew: string;
  schedule: Schedule;
  canEdit: boolean;
}) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["crews", crew, "schedules"] });
  const api = automationApi(crew);
  const next = s.next_fire_times[0];
  return (
    <li className="grid gap-2 px-3 py-3 text-sm">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <span className="font-medium">{s.name}</span>
        {s.paused && <Badge tone="warning">Paused</Badge>}
        <code className="font-mono text-muted-foreground text-xs">
          {s.cron} · {s.timezone}
        </code>
        {canEdit && (
          <span className="ml-auto flex gap-1">
            <ScheduleDialog crew={crew} schedule={s} />
            <PauseButton
              name={s.name}
              paused={s.paused}
              update={(paused) => api.updateSchedule(s.id, { paused })}
              refresh={refresh}
            />
            <DeleteButton
              name={s.name}
              what="schedule"
              description="It starts no more runs. The runs it started stay, naming it."
              remove={() => api.deleteSchedule(s.id)}
              refresh={refresh}
            />
          </span>
        )}
      </div>
      <p className="m-0 text-muted-foreground">
        {next ? (
          <>
            Next: <span className="text-foreground">{fireTime(next, s.timezone)}</span>
          </>
        ) : (
          "Paused: no runs until resumed."
        )}{" "}
        · {OVERLAP[s.overlap]}
        {s.catch_up > 1 ? ` · catches up ${s.catch_up} missed` : ""}
      </p>
      {s.last_fire && <FireLine crew={crew} fire={s.last_fire} label="Last" />}
      <Button
        size="sm"
        variant="ghost"
        className="justify-self-start"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        <ChevronDown aria-hidden className={open ? "rotate-180" : undefined} />
        {open ? "Hide" : "Next five and history"}
      </Button>
      {open && <ScheduleDetail crew={crew} schedule={s} />}
    </li>
  );
}

function ScheduleDetail({ crew, schedule: s }: { crew: string; schedule: Schedule }) {
  const { data, error } = useQuery({
    queryKey: ["crews", crew, "schedules", s.id, "fires"],
    queryFn: () => automationApi(crew).fires(s.id),
  });
  return (
    <div className="grid gap-3 rounded-md bg-muted/50 p-3">
      {s.next_fire_times.length > 0 && (
        <div className="grid gap-1">
          <span className="font-medium">Next five</span>
          <ol className="m-0 grid list-none gap-0.5 p-0 tabular-nums">
            {s.next_fire_times.map((t) => (
              <li key={t}>{fireTime(t, s.timezone)}</li>
            ))}
          </ol>
        </div>
      )}
      <div className="grid gap-1">
        <span className="font-medium">History</span>
        {error ? (
          <span className="text-tone-danger-foreground">{error.message}</span>
        ) : !data ? (
          <Skeleton className="h-6" />
        ) : data.fires.length === 0 ? (
          <span className="text-muted-foreground">Nothing yet: it has not been due.</span>
        ) : (
          <ul className="m-0 grid list-none gap-1.5 p-0">
            {data.fires.map((f) => (
              <li key={f.due_at}>
                <FireLine crew={crew} fire={f} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

function FireLine({ crew, fire, label }: { crew: string; fire: ScheduleFire; label?: string }) {
  return (
    <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs">
      {label && <span className="text-muted-foreground">{label}:</span>}
      <Badge tone={FIRE_TONE[fire.outcome]}>{fire.outcome}</Badge>
      <span className="text-muted-foreground">
        due <RelativeTime iso={fire.due_at} />
      </span>
      {fire.execution_id && (
        <Link
          className="font-mono text-link hover:underline"
          href={`/crews/${crew}/runs/${fire.execution_id}`}
        >
          run {shortId(fire.execution_id)}
        </Link>
      )}
      {fire.detail && (
        <span className="basis-full break-words text-muted-foreground">{fire.detail}</span>
      )}
    </div>
  );
}
