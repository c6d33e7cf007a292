"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ChevronDown, KeyRound, Webhook } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { RelativeTime } from "@/components/ui/relative-time";
import { Skeleton } from "@/components/ui/skeleton";
import { automationApi, type Trigger, type TriggerEvent } from "@/lib/api/client";
import { shortId } from "@/lib/format/id";
import { ListSection } from "./list-section";
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
  const { data, error } = useQuery({
    queryKey: ["crews", crew, "triggers"],
    queryFn: () => automationApi(crew).triggers(),
    refetchInterval: 10_000,
  });
  return (
    <ListSection
      id="triggers"
      title="Triggers"
      action={canEdit && <TriggerDialog crew={crew} />}
      error={error}
      loading={!data}
      empty={
        data && data.triggers.length === 0 ? (
          <EmptyState icon={Webhook} title="No triggers">
            {canEdit
              ? "Start this crew from another system's events — an issue opened, a form sent — with a signed webhook."
              : "An operator can let another system's events start this crew."}
          </EmptyState>
        ) : null
      }
    >
      {data?.triggers.map((t) => (
        <TriggerRow key={t.id} crew={crew} trigger={t} canEdit={canEdit} />
      ))}
    </ListSection>
  );
}

function TriggerRow({
  crew,
  trigger: t,
  canEdit,
}: {
  crew: string;
  trigger: Trigger;
  canEdit: boolean;
}) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [rotated, setRotated] = useState<(Trigger & { secret: string }) | null>(null);
  const api = automationApi(crew);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["crews", crew, "triggers"] });
  const address = deliveryAddress(t);
  const mapped = Object.entries(t.mapping);
  return (
    <li className="grid gap-2 px-3 py-3 text-sm">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <span className="font-medium">{t.name}</span>
        <Badge tone="outline">{senderLabel(t.signature)}</Badge>
        {t.paused && <Badge tone="warning">Paused</Badge>}
        {canEdit && (
          <span className="ml-auto flex gap-1">
            <TriggerDialog crew={crew} trigger={t} />
            <PauseButton
              name={t.name}
              paused={t.paused}
              update={(paused) => api.updateTrigger(t.id, { paused })}
              refresh={refresh}
            />
            <ConfirmDialog
              trigger={
                <Button size="icon" variant="ghost" aria-label={`Rotate the secret of ${t.name}`}>
                  <KeyRound aria-hidden />
                </Button>
              }
              title={`New secret for “${t.name}”?`}
              description="The current secret stops working at once: the sender needs the new one."
              confirmLabel="Rotate secret"
              onConfirm={async () => setRotated(await api.rotateSecret(t.id))}
            />
            <DeleteButton
              name={t.name}
              what="trigger"
              description="Deliveries to its address are refused from now on. The runs it started stay, naming it."
              remove={() => api.deleteTrigger(t.id)}
              refresh={refresh}
            />
          </span>
        )}
      </div>
      <div className="flex items-start gap-2">
        <code className="min-w-0 flex-1 break-all font-mono text-muted-foreground text-xs">
          POST {address}
        </code>
        <CopyButton text={address} what="address" />
      </div>
      {mapped.length > 0 && (
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
      )}
      {t.last_event && <EventLine crew={crew} event={t.last_event} label="Last" />}
      <Button
        size="sm"
        variant="ghost"
        className="justify-self-start"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        <ChevronDown aria-hidden className={open ? "rotate-180" : undefined} />
        {open ? "Hide deliveries" : "Deliveries"}
      </Button>
      {open && <Deliveries crew={crew} id={t.id} />}
      <Dialog open={!!rotated} onOpenChange={(o) => !o && setRotated(null)}>
        <DialogContent
          title={`New secret for “${t.name}”`}
          description="Give it to the sender now: it is shown this once."
          className="sm:max-w-xl"
        >
          {rotated && <SecretOnce trigger={rotated} onDone={() => setRotated(null)} />}
        </DialogContent>
      </Dialog>
    </li>
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
      {e.execution_id && (
        <Link
          className="font-mono text-link hover:underline"
          href={`/crews/${crew}/runs/${e.execution_id}`}
        >
          run {shortId(e.execution_id)}
        </Link>
      )}
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
