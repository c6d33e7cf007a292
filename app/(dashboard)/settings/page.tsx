import type { Metadata } from "next";
import { Suspense } from "react";
import { DeliveriesSection } from "@/components/settings/deliveries-section";
import { DeploymentsSection } from "@/components/settings/deployments-section";
import { IntegrationSection } from "@/components/settings/integration-section";
import { LinearOAuthSection } from "@/components/settings/linear-oauth-section";
import { SecretSection } from "@/components/settings/secret-section";
import { TokensSection } from "@/components/settings/tokens-section";
import { TrackerBackendSection } from "@/components/settings/tracker-backend-section";
import { UsersSection } from "@/components/settings/users-section";
import { requireUser } from "@/lib/auth/require-user";
import { roleAllows } from "@/lib/auth/roles";

export const metadata: Metadata = { title: "Settings" };
export const dynamic = "force-dynamic";

export default async function SettingsPage() {
  const { user } = await requireUser();
  const isAdmin = user.role === "admin";
  return (
    <>
      <h1>Settings</h1>
      <TokensSection isAdmin={isAdmin} canHaveToken={roleAllows(user.role, "start")} />
      {isAdmin && <UsersSection me={user.id} />}
      {isAdmin && <DeploymentsSection />}
      {isAdmin && <DeliveriesSection />}
      {isAdmin && <SecretSection />}
      {isAdmin && <TrackerBackendSection />}
      {isAdmin && (
        <Suspense>
          <LinearOAuthSection />
        </Suspense>
      )}
      {isAdmin && <IntegrationSection />}
    </>
  );
}
