import type { Metadata } from "next";
import { Suspense } from "react";
import { BuiltinToolsSection } from "@/components/settings/builtin-tools-section";
import {
  DeliveriesSection,
  DeploymentsSection,
  IntegrationSection,
  LinearOAuthSection,
  McpSecretsSection,
  McpServersSection,
  NotificationPrefsSection,
  NotificationsSection,
  SecretSection,
  TrackerBackendSection,
  UsersSection,
} from "@/components/settings/lazy-sections";
import { type SettingsTab, SettingsTabs } from "@/components/settings/settings-tabs";
import { TokensSection } from "@/components/settings/tokens-section";
import { PageHeader } from "@/components/shell/page-header";
import { requireUser } from "@/lib/auth/require-user";
import { roleAllows } from "@/lib/auth/roles";
import { toolkitStatus } from "@/lib/tools/builtin/toolkit-status";

export const metadata: Metadata = { title: "Settings" };
export const dynamic = "force-dynamic";

export default async function SettingsPage() {
  const { user } = await requireUser();
  const isAdmin = user.role === "admin";
  // Only administrators' tabs are rendered for them; the API routes check the same roles.
  const tabs: SettingsTab[] = [
    {
      id: "tokens",
      label: "Tokens",
      content: <TokensSection isAdmin={isAdmin} canHaveToken={roleAllows(user.role, "start")} />,
    },
    {
      id: "notifications",
      label: "Notifications",
      content: (
        <>
          <NotificationPrefsSection />
          {isAdmin && <NotificationsSection />}
        </>
      ),
    },
  ];
  if (isAdmin) {
    tabs.push(
      { id: "people", label: "People", content: <UsersSection me={user.id} /> },
      { id: "deployments", label: "Deployments", content: <DeploymentsSection /> },
      {
        id: "webhooks",
        label: "Webhooks",
        content: (
          <>
            <DeliveriesSection />
            <SecretSection />
          </>
        ),
      },
      {
        id: "integrations",
        label: "Integrations",
        content: (
          <>
            <TrackerBackendSection />
            <LinearOAuthSection />
            <IntegrationSection />
          </>
        ),
      },
      {
        id: "tools",
        label: "Tools",
        content: (
          <div className="grid min-w-0 gap-6 [&>*]:min-w-0">
            <McpServersSection />
            <McpSecretsSection />
            <BuiltinToolsSection tools={toolkitStatus()} />
          </div>
        ),
      },
    );
  }
  return (
    <>
      <PageHeader
        title="Settings"
        description={
          isAdmin
            ? "API tokens, notifications, people, remote deployments, webhooks, the issue tracker and agents' tools."
            : "Your API tokens and notifications."
        }
      />
      <Suspense>
        <SettingsTabs tabs={tabs} />
      </Suspense>
    </>
  );
}
