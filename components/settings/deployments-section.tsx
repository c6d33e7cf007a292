"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Pencil, Server } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { type ConnectionCheck, deploymentsApi } from "@/lib/api/client";
import type { DeploymentView } from "@/lib/contract/admin";
import { type DeploymentFields, DeploymentForm } from "./deployment-form";

const EMPTY: DeploymentFields = { name: "", base_url: "", token: "", webhook_secret: "" };

/** Remote deployments: crews served elsewhere, started and reviewed from this dashboard. */
export function DeploymentsSection() {
  const qc = useQueryClient();
  const { data, error } = useQuery({ queryKey: ["deployments"], queryFn: deploymentsApi.list });
  const [checks, setChecks] = useState<Record<string, ConnectionCheck>>({});
  const [formKey, setFormKey] = useState(0);
  const [editing, setEditing] = useState<DeploymentView | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: ["deployments"] });
  const test = useMutation({
    mutationFn: deploymentsApi.test,
    onSuccess: (check, slug) => setChecks((c) => ({ ...c, [slug]: check })),
  });
  const create = useMutation({
    mutationFn: (f: DeploymentFields) => deploymentsApi.create(f),
    onSuccess: (d) => {
      setFormKey((k) => k + 1); // a fresh, empty form
      refresh();
      test.mutate(d.slug); // a new deployment is tested at once: most mistakes show here
    },
  });
  const update = useMutation({
    mutationFn: ({ slug, f }: { slug: string; f: DeploymentFields }) =>
      deploymentsApi.update(slug, f),
    onSuccess: (d) => {
      setEditing(null);
      setChecks(({ [d.slug]: _stale, ...rest }) => rest);
      refresh();
      test.mutate(d.slug);
    },
  });
  const remove = useMutation({ mutationFn: deploymentsApi.remove, onSuccess: refresh });
  const failure = error ?? remove.error ?? test.error;

  return (
    <div className="grid min-w-0 gap-6 [&>*]:min-w-0">
      <Card aria-labelledby="deployments-title">
        <CardHeader>
          <div className="grid gap-1">
            <CardTitle id="deployments-title">Deployments</CardTitle>
            <CardDescription>
              Crews served elsewhere — another Crewdeck (
              <code className="font-mono">…/api/crews/&lt;crew&gt;</code>) or a CrewAI deployment.
              They appear under Crews; their runs report back by webhook and by polling.
            </CardDescription>
          </div>
        </CardHeader>
        <CardContent className="grid gap-3 [&>*]:min-w-0">
          {failure && <Alert tone="danger">{failure.message}</Alert>}
          {!data && !error && <Skeleton className="h-20" />}
          {data && data.deployments.length === 0 && (
            <EmptyState icon={Server} title="No deployments yet">
              Add one below with its base URL and a token it accepts.
            </EmptyState>
          )}
          {data && data.deployments.length > 0 && (
            <ul className="grid divide-y rounded-lg border">
              {data.deployments.map((d) => {
                const check = checks[d.slug];
                const testing = test.isPending && test.variables === d.slug;
                return (
                  <li key={d.id} className="grid gap-2 p-3 sm:grid-cols-[1fr_auto] sm:items-start">
                    <div className="grid min-w-0 gap-1">
                      <div className="flex flex-wrap items-center gap-2">
                        <Link
                          href={`/crews/@${d.slug}`}
                          className="font-medium text-link hover:underline"
                        >
                          {d.name}
                        </Link>
                        {d.signs_webhooks && <Badge tone="success">Signed webhooks</Badge>}
                      </div>
                      <code className="break-all font-mono text-muted-foreground text-xs">
                        {d.base_url}
                      </code>
                      {check?.ok && (
                        <Alert tone="success">
                          Connected · inputs: {check.inputs.join(", ") || "(none)"}
                        </Alert>
                      )}
                      {check && !check.ok && <Alert tone="danger">{check.reason}</Alert>}
                    </div>
                    <div className="flex flex-wrap gap-1 sm:justify-end">
                      <Button size="sm" onClick={() => test.mutate(d.slug)} disabled={testing}>
                        {testing ? "Testing…" : "Test connection"}
                      </Button>
                      <Button
                        size="sm"
                        variant="ghost"
                        aria-label={`Edit ${d.name}`}
                        onClick={() => {
                          update.reset();
                          setEditing(d);
                        }}
                      >
                        <Pencil aria-hidden /> Edit
                      </Button>
                      <ConfirmDialog
                        trigger={
                          <Button size="sm" variant="ghost" aria-label={`Remove ${d.name}`}>
                            Remove
                          </Button>
                        }
                        title={`Remove ${d.name}?`}
                        description="The deployment and the record of its runs here are deleted; the runs themselves stay on the deployment."
                        confirmLabel="Remove"
                        onConfirm={() => remove.mutateAsync(d.slug).then(() => undefined)}
                      />
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
        </CardContent>
      </Card>
      <Card aria-labelledby="add-deployment-title">
        <CardHeader>
          <CardTitle id="add-deployment-title">Add a deployment</CardTitle>
        </CardHeader>
        <CardContent>
          <DeploymentForm
            key={formKey}
            idPrefix="deployment"
            label="Add a deployment"
            initial={EMPTY}
            editing={false}
            busy={create.isPending}
            submitLabel={create.isPending ? "Adding…" : "Add deployment"}
            onSubmit={(f) => create.mutate(f)}
          >
            {create.error && <Alert tone="danger">{create.error.message}</Alert>}
          </DeploymentForm>
        </CardContent>
      </Card>
      <Dialog open={editing !== null} onOpenChange={(open) => !open && setEditing(null)}>
        {editing && (
          <DialogContent
            title={`Edit ${editing.name}`}
            description="Token and webhook secret are never shown; type new ones to replace them."
            className="max-w-2xl"
          >
            <DeploymentForm
              idPrefix="edit-deployment"
              label="Edit deployment"
              initial={{ ...EMPTY, name: editing.name, base_url: editing.base_url }}
              editing
              busy={update.isPending}
              submitLabel={update.isPending ? "Saving…" : "Save changes"}
              onSubmit={(f) => update.mutate({ slug: editing.slug, f })}
            >
              {update.error && <Alert tone="danger">{update.error.message}</Alert>}
            </DeploymentForm>
          </DialogContent>
        )}
      </Dialog>
    </div>
  );
}
