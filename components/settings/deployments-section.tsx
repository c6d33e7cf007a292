"use client";

import { Pencil, Server } from "lucide-react";
import Link from "next/link";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import type { ConnectionCheck } from "@/lib/api/client";
import { type DeploymentFields, DeploymentForm } from "./deployment-form";
import { ConfirmAction, SectionDialog } from "./kit/dialogs";
import { TestButton } from "./kit/fields";
import { Item, ItemList } from "./kit/item-list";
import { CheckResult, Loading, Problem, SettingsSection } from "./kit/section";
import { type Deployment, type DeploymentsState, useDeployments } from "./use-deployments";

const EMPTY: DeploymentFields = { name: "", base_url: "", token: "", webhook_secret: "" };

const checkResult = (c: ConnectionCheck | undefined) =>
  c && {
    ok: c.ok,
    text: c.ok ? `Connected · inputs: ${c.inputs.join(", ") || "(none)"}` : c.reason,
  };

/** Remote deployments: crews served elsewhere, started and reviewed from this dashboard. */
export function DeploymentsSection() {
  const state = useDeployments();
  const { query, create, remove, test } = state;
  const { data, error } = query;
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
              <DeploymentItem key={d.id} deployment={d} state={state} />
            ))}
          </ItemList>
        )}
      </SettingsSection>
      <SettingsSection id="add-deployment" title="Add a deployment">
        <DeploymentForm
          key={state.formKey}
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
      <EditDeploymentDialog state={state} />
    </div>
  );
}

function DeploymentItem({
  deployment: d,
  state,
}: {
  deployment: Deployment;
  state: DeploymentsState;
}) {
  const { test, update, remove } = state;
  return (
    <Item
      name={
        <Link href={`/crews/@${d.slug}`} className="font-medium text-link hover:underline">
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
              state.setEditing(d);
            }}
          >
            <Pencil aria-hidden /> Edit
          </Button>
          <ConfirmAction
            verb="Remove"
            name={d.name}
            description="The deployment and the record of its runs here are deleted; the runs themselves stay on the deployment."
            onConfirm={() => remove.mutateAsync(d.slug)}
          />
        </>
      }
    >
      <CheckResult result={checkResult(state.checks[d.slug])} />
    </Item>
  );
}

function EditDeploymentDialog({ state }: { state: DeploymentsState }) {
  const { editing, update } = state;
  return (
    <SectionDialog
      open={editing !== null}
      onClose={() => state.setEditing(null)}
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
  );
}
