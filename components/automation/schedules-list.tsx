"use client";

import { useQuery } from "@tanstack/react-query";
import { CalendarClock } from "lucide-react";
import { useState } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { RelativeTime } from "@/components/ui/relative-time";
import { Skeleton } from "@/components/ui/skeleton";
import { automationApi, type Schedule, type ScheduleFire } from "@/lib/api/client";
import { CrewItems, ExpandButton, ItemRow, RunLink, useRefreshItems } from "./crew-items";
import { fireTime } from "./fire-time";
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
  return (
    <CrewItems
      crew={crew}
      kind="schedules"
      title="Schedules"
      canEdit={canEdit}
      load={() => automationApi(crew).schedules()}
      items={(data) => data.schedules}
      refetchInterval={30_000}
      action={<ScheduleDialog crew={crew} />}
      empty={{
        icon: CalendarClock,
        editor:
          "Run this crew on a rhythm — every weekday at 9:00, every hour — in your time zone.",
        viewer: "An operator can make this crew run on a rhythm.",
      }}
      row={(s) => <ScheduleRow key={s.id} crew={crew} schedule={s} canEdit={canEdit} />}
    />
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
  const [open, setOpen] = useState(false);
  const refresh = useRefreshItems(crew, "schedules");
  const api = automationApi(crew);
  return (
    <ItemRow
      name={s.name}
      badges={
        <>
          {s.paused && <Badge tone="warning">Paused</Badge>}
          <code className="font-mono text-muted-foreground text-xs">
            {s.cron} · {s.timezone}
          </code>
        </>
      }
      actions={
        canEdit && (
          <>
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
          </>
        )
      }
    >
      <NextLine schedule={s} />
      {s.last_fire && <FireLine crew={crew} fire={s.last_fire} label="Last" />}
      <ExpandButton open={open} setOpen={setOpen} label="Next five and history" openLabel="Hide" />
      {open && <ScheduleDetail crew={crew} schedule={s} />}
    </ItemRow>
  );
}

function NextLine({ schedule: s }: { schedule: Schedule }) {
  const next = s.next_fire_times[0];
  return (
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
      {fire.execution_id && <RunLink crew={crew} id={fire.execution_id} />}
      {fire.detail && (
        <span className="basis-full break-words text-muted-foreground">{fire.detail}</span>
      )}
    </div>
  );
}
