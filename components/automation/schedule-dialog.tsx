"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { KickoffForm } from "@/components/crews/kickoff-form";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { toast } from "@/components/ui/toast";
import type { Schedule } from "@/lib/api/client";
import { OpenerButton } from "./form-bits";
import { ScheduleFields } from "./schedule-fields";
import { useScheduleForm } from "./use-schedule-form";

/**
 * "New schedule" (or, given one, "Edit"): when (cron, zone, with presets and the next five times),
 * then the inputs.
 */
export function ScheduleDialog({ crew, schedule }: { crew: string; schedule?: Schedule }) {
  const [open, setOpen] = useState(false);
  const form = useScheduleForm(crew, schedule);
  const queryClient = useQueryClient();
  const base = useId();
  const id = (field: string) => `${base}-${field}`;
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <OpenerButton kind="schedule" editing={!!schedule} onClick={() => setOpen(true)} />
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
          start={form.start}
          onStarted={() => {
            setOpen(false);
            toast.success(`Schedule “${form.name.trim()}” saved.`);
            void queryClient.invalidateQueries({ queryKey: ["crews", crew, "schedules"] });
            if (!schedule) form.setName("");
          }}
          lead={<ScheduleFields form={form} id={id} />}
        />
      </DialogContent>
    </Dialog>
  );
}
