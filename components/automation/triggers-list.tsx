"use client";

import { useQuery } from "@tanstack/react-query";
import { KeyRound, Webhook } from "lucide-react";
import { useState } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { RelativeTime } from "@/components/ui/relative-time";
import { Skeleton } from "@/components/ui/skeleton";
import { automationApi, type Trigger, type TriggerEvent } from "@/lib/api/client";
import { CrewItems, ExpandButton, ItemRow, RunLink, useRefreshItems } from "./crew-items";
import { DeleteButton, PauseButton } from "./row-actions";
import { deliveryAddress, SecretOnce } from "./secret-once";
import { SENDERS, TriggerDialog } from "./trigger-dialog";

const OUTCOME: Record<TriggerEvent["outcome"], { tone: BadgeTone; label: string }> = {
  started: { tone: "success", label: "Started a run" },
  duplicate: { tone: "neutral", label: "Seen before" },
  unauthorized: { tone: "danger", label: "Bad signature" },
  invalid: { tone: "danger", label: "Did not map" },
  limited: { tone: "warning", label: "Rate-limited" },
  refused: { tone: "warning", label: "Refused" },
};

const senderLabel = (s: Trigger["signature"]) =>
  SENDERS.find((x) => x.value === s)?.label.replace(/ \(.*\)$/, "") ?? s;

/** The crew's triggers: where each takes deliveries, what the last one did, its delivery log. */
export function TriggersList({ crew, canEdit }: { crew: string; canEdit: boolean }) {
  return (
    <CrewItems
      crew={crew}
      kind="triggers"
      title="Triggers"
      canEdit={canEdit}
      load={() => automationApi(crew).triggers()}
      items={(data) => data.triggers}
      refetchInterval={10_000}
      action={<TriggerDialog crew={crew} />}
      empty={{
        icon: Webhook,
        editor:
          "Start this crew from another system's events — an issue opened, a form sent — with a signed webhook.",
        viewer: "An operator can let another system's events start this crew.",
      }}
      row={(t) => <TriggerRow key={t.id} crew={crew} trigger={t} canEdit={canEdit} />}
    />
  );
}

type Rotated = Trigger & { secret: string };

function TriggerRow({
  crew,
  trigger: t,
  canEdit,
}: {
  crew: string;
  trigger: Trigger;
  canEdit: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [rotated, setRotated] = useState<Rotated | null>(null);
  const api = automationApi(crew);
  const refresh = useRefreshItems(crew, "triggers");
  const address = deliveryAddress(t);
  return (
    <ItemRow
      name={t.name}
      badges={
        <>
          <Badge tone="outline">{senderLabel(t.signature)}</Badge>
          {t.paused && <Badge tone="warning">Paused</Badge>}
        </>
      }
      actions={
        canEdit && (
          <>
            <TriggerDialog crew={crew} trigger={t} />
            <PauseButton
              name={t.name}
              paused={t.paused}
              update={(paused) => api.updateTrigger(t.id, { paused })}
              refresh={refresh}
            />
            <RotateButton
              name={t.name}
              rotate={async () => setRotated(await api.rotateSecret(t.id))}
            />
            <DeleteButton
              name={t.name}
              what="trigger"
              description="Deliveries to its address are refused from now on. The runs it started stay, naming it."
              remove={() => api.deleteTrigger(t.id)}
              refresh={refresh}
            />
          </>
        )
      }
    >
      <div className="flex items-start gap-2">
        <code className="min-w-0 flex-1 break-all font-mono text-muted-foreground text-xs">
          POST {address}
        </code>
        <CopyButton text={address} what="address" />
      </div>
      <MappingLine trigger={t} />
      {t.last_event && <EventLine crew={crew} event={t.last_event} label="Last" />}
      <ExpandButton open={open} setOpen={setOpen} label="Deliveries" openLabel="Hide deliveries" />
      {open && <Deliveries crew={crew} id={t.id} />}
      <RotatedDialog name={t.name} rotated={rotated} close={() => setRotated(null)} />
    </ItemRow>
  );
}

function RotateButton({ name, rotate }: { name: string; rotate: () => Promise<void> }) {
  return (
    <ConfirmDialog
      trigger={
        <Button size="icon" variant="ghost" aria-label={`Rotate the secret of ${name}`}>
          <KeyRound aria-hidden />
        </Button>
      }
      title={`New secret for “${name}”?`}
      description="The current secret stops working at once: the sender needs the new one."
      confirmLabel="Rotate secret"
      onConfirm={rotate}
    />
  );
}

function RotatedDialog({
  name,
  rotated,
  close,
}: {
  name: string;
  rotated: Rotated | null;
  close: () => void;
}) {
  return (
    <Dialog open={!!rotated} onOpenChange={(o) => !o && close()}>
      <DialogContent
        title={`New secret for “${name}”`}
        description="Give it to the sender now: it is shown this once."
        className="sm:max-w-xl"
      >
        {rotated && <SecretOnce trigger={rotated} onDone={close} />}
      </DialogContent>
    </Dialog>
  );
}

function MappingLine({ trigger: t }: { trigger: Trigger }) {
  const mapped = Object.entries(t.mapping);
  if (mapped.length === 0) return null;
  return (
    <p className="m-0 break-words text-muted-foreground text-xs">
      {mapped.map(([input, expr], i) => (
        <span key={input}>
          {i > 0 && " · "}
          {input} ← <code className="font-mono">{expr}</code>
        </span>
      ))}
      {t.concurrency && (
        <>
          {" "}
          · one at a time per <code className="font-mono">{t.concurrency.key}</code> (
          {t.concurrency.policy})
        </>
      )}
    </p>
  );
}

function Deliveries({ crew, id }: { crew: string; id: string }) {
  const { data, error } = useQuery({
    queryKey: ["crews", crew, "triggers", id, "events"],
    queryFn: () => automationApi(crew).events(id),
    refetchInterval: 5_000,
  });
  if (error) return <span className="text-tone-danger-foreground">{error.message}</span>;
  if (!data) return <Skeleton className="h-6" />;
  if (!data.events.length)
    return (
      <p className="m-0 rounded-md bg-muted/50 p-3 text-muted-foreground">
        No deliveries yet: they are listed here as they arrive, with the run each started.
      </p>
    );
  return (
    <ul className="m-0 grid list-none gap-2 rounded-md bg-muted/50 p-3">
      {data.events.map((e) => (
        <li key={e.id}>
          <EventLine crew={crew} event={e} />
        </li>
      ))}
    </ul>
  );
}

function EventLine({
  crew,
  event: e,
  label,
}: {
  crew: string;
  event: TriggerEvent;
  label?: string;
}) {
  const o = OUTCOME[e.outcome];
  return (
    <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs">
      {label && <span className="text-muted-foreground">{label}:</span>}
      <Badge tone={o.tone}>{o.label}</Badge>
      <span className="text-muted-foreground tabular-nums">{e.status_code}</span>
      <RelativeTime iso={e.received_at} className="text-muted-foreground" />
      {e.execution_id && <RunLink crew={crew} id={e.execution_id} />}
      {e.delivery_id && (
        <span className="font-mono text-muted-foreground" title={`Delivery ${e.delivery_id}`}>
          delivery {e.delivery_id.length > 12 ? `${e.delivery_id.slice(0, 12)}…` : e.delivery_id}
        </span>
      )}
      {e.detail && <span className="basis-full break-words text-muted-foreground">{e.detail}</span>}
      {e.errors?.map((fe) => (
        <span key={fe.path} className="basis-full break-words text-tone-danger-foreground">
          <code className="font-mono">{fe.path}</code>: {fe.message}
        </span>
      ))}
    </div>
  );
}
