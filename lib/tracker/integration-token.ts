import { hashToken, safeEqual } from "@/lib/auth/token-format";
import { env } from "@/lib/config/env";
import { dataDirSecret } from "@/lib/config/secrets";
import { TrackerError } from "./errors";

/** The token the agent runtime presents for integration actions: the environment's, or one generated into DATA_DIR. */
export function integrationToken(): string {
  return env().SERVICE_PLATFORM_INTEGRATION_TOKEN ?? dataDirSecret("integration-token");
}

export function checkIntegrationToken(request: Request) {
  const m = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization")?.trim() ?? "");
  if (!m?.[1] || !safeEqual(hashToken(m[1]), hashToken(integrationToken()))) {
    const err = new TrackerError(
      "permission_denied",
      "Send the integration token (SERVICE_PLATFORM_INTEGRATION_TOKEN) as `Authorization: Bearer <token>`.",
    );
    return Object.assign(err, { status: 401 });
  }
  return undefined;
}
