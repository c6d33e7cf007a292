"use client";

import dynamic from "next/dynamic";
import { Skeleton } from "@/components/ui/skeleton";

// Each administrator's tab brings its code when it is first shown: opening Settings on Tokens
// does not download the people table, the deployment forms or the delivery log.
const loading = () => <Skeleton className="h-48 w-full rounded-xl" />;

export const UsersSection = dynamic(() => import("./users-section").then((m) => m.UsersSection), {
  loading,
});
export const DeploymentsSection = dynamic(
  () => import("./deployments-section").then((m) => m.DeploymentsSection),
  { loading },
);
export const DeliveriesSection = dynamic(
  () => import("./deliveries-section").then((m) => m.DeliveriesSection),
  { loading },
);
export const SecretSection = dynamic(
  () => import("./secret-section").then((m) => m.SecretSection),
  {
    loading,
  },
);
export const TrackerBackendSection = dynamic(
  () => import("./tracker-backend-section").then((m) => m.TrackerBackendSection),
  { loading },
);
export const LinearOAuthSection = dynamic(
  () => import("./linear-oauth-section").then((m) => m.LinearOAuthSection),
  { loading },
);
export const IntegrationSection = dynamic(
  () => import("./integration-section").then((m) => m.IntegrationSection),
  { loading },
);
export const NotificationsSection = dynamic(
  () => import("./notifications-section").then((m) => m.NotificationsSection),
  { loading },
);
export const NotificationPrefsSection = dynamic(
  () => import("./notification-prefs-section").then((m) => m.NotificationPrefsSection),
  { loading },
);
export const McpServersSection = dynamic(
  () => import("./mcp-servers-section").then((m) => m.McpServersSection),
  { loading },
);
export const McpSecretsSection = dynamic(
  () => import("./mcp-secrets-section").then((m) => m.McpSecretsSection),
  { loading },
);
