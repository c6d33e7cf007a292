"use client";

import { useMutation } from "@tanstack/react-query";
import { Pencil, Server } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { type ConnectionCheck, deploymentsApi } from "@/lib/api/client";
import { type DeploymentFields, DeploymentForm } from "./deployment-form";
import { ConfirmButton, SectionDialog } from "./kit/dialogs";
import { TestButton } from "./kit/fields";
import { Item, ItemList } from "./kit/item-list";
import { CheckResult, Loading, Problem, SettingsSection } from "./kit/section";
import { useSettingsQuery } from "./kit/use-settings-query";

type Deployment = Awaited<ReturnType<typeof deploymentsApi.list>>["deployments"][number];

const EMPTY: DeploymentFields = { name: "", base_url: "", token: "", webhook_secret: "" };

const checkResult = (c: ConnectionCheck | undefined) =>
  c && {
    ok: c.ok,
    text: c.ok ? `Connected · inputs: ${c.inputs.join(", ") || "(none)"}` : c.reason,
  };

/** Remote deployments: crews served elsewhere, started and reviewed from this dashboard. */
export function DeploymentsSection() {
  const { query, refresh } = useSettingsQuery(["deployments"], deploymentsApi.list);
  const { data, error } = query;
  const [checks, setChecks] = useState<Record<string, ConnectionCheck>>({});
  const [formKey, setFormKey] = useState(0);
  const [editing, setEditing] = useState<Deployment | null>(null);
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

  return (
    <div className="grid min-w-0 gap-6 [&>*]:min-w-0">
      <SettingsSection
        id="deployments"
        title="Deployments"
        gap="gap-3"
        description={
          <>
            Crews served elsewhere — another Crewdeck (
            <code className="font-mono">…/api/crews/&lt;crew&gt;</code>) or a CrewAI deployment.
            They appear under Crews; their runs report back by webhook and by polling.
          </>
        }
      >
        <Problem errors={[error, remove.error, test.error]} />
        <Loading query={query} className="h-20" />
        {data && data.deployments.length === 0 && (
          <EmptyState icon={Server} title="No deployments yet">
            Add one below with its base URL and a token it accepts.
          </EmptyState>
        )}
        {data && data.deployments.length > 0 && (
          <ItemList>
            {data.deployments.map((d) => (
              <Item
                key={d.id}
                name={
                  <Link
                    href={`/crews/@${d.slug}`}
                    className="font-medium text-link hover:underline"
                  >
                    {d.name}
                  </Link>
                }
                badges={d.signs_webhooks && <Badge tone="success">Signed webhooks</Badge>}
                detail={d.base_url}
                actions={
                  <>
                    <TestButton
                      size="sm"
                      testing={test.isPending && test.variables === d.slug}
                      onClick={() => test.mutate(d.slug)}
                    />
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
                    <ConfirmButton
                      label={`Remove ${d.name}`}
                      title={`Remove ${d.name}?`}
                      description="The deployment and the record of its runs here are deleted; the runs themselves stay on the deployment."
                      confirmLabel="Remove"
                      onConfirm={() => remove.mutateAsync(d.slug)}
                    >
                      Remove
                    </ConfirmButton>
                  </>
                }
              >
                <CheckResult result={checkResult(checks[d.slug])} />
              </Item>
            ))}
          </ItemList>
        )}
      </SettingsSection>
      <SettingsSection id="add-deployment" title="Add a deployment">
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
      </SettingsSection>
      <SectionDialog
        open={editing !== null}
        onClose={() => setEditing(null)}
        title={`Edit ${editing?.name ?? ""}`}
        description="Token and webhook secret are never shown; type new ones to replace them."
        className="max-w-2xl"
      >
        {editing && (
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
        )}
      </SectionDialog>
    </div>
  );
}
