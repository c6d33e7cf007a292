import type { TestProject } from "vitest/node";
import { startFakeOpenAI } from "../support/fake-openai";
import {
  dbMode,
  ensureBuild,
  FIXTURE_CREWS,
  freePort,
  freshPostgresDatabase,
  startServer,
  TEST_ADMIN,
  TEST_CREW_TOKEN,
  TEST_INTEGRATION_TOKEN,
  tempDir,
} from "../support/harness";
import { TEST_WEBHOOK_SECRET } from "../support/receiver";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    serverEnv: Record<string, string>;
    db: "embedded" | "postgres";
  }
}

// One real `next start` for the HTTP suite, on the embedded database or (TEST_DB=postgres) on a
// fresh database of the PostgreSQL server that scripts/test.sh started.
export default async function setup(project: TestProject) {
  ensureBuild();
  const mode = dbMode();
  const databaseUrl = mode === "postgres" ? await freshPostgresDatabase() : undefined;
  if (mode === "postgres" && !databaseUrl)
    throw new Error("TEST_DB=postgres needs TEST_PG_URL (scripts/test.sh sets it)");
  // The only thing outside the machine is a model vendor: a loopback server plays it.
  const openai = await startFakeOpenAI();
  const port = await freePort();
  const serverEnv: Record<string, string> = {
    PORT: String(port),
    // Remote deployments (another Crewdeck, a CrewAI fake) live on loopback and call us back.
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DEPLOYMENT_ALLOWED_NETWORKS: "127.0.0.0/8",
    // A remote on this loaded machine may be slow to answer; slow is not unreachable here.
    DEPLOYMENT_TIMEOUT_MS: "60000",
    OPENAI_BASE_URL: openai.url,
    OPENAI_API_KEY: "test-key",
    MODEL_MAX_RETRIES: "1",
    WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
    SERVICE_PLATFORM_INTEGRATION_TOKEN: TEST_INTEGRATION_TOKEN,
    WEBHOOK_ALLOWED_NETWORKS: "127.0.0.2/32",
    WEBHOOK_RETRY_SCHEDULE: "0,100,200,300,400",
    WEBHOOK_TIMEOUT_MS: "2000",
    DATA_DIR: tempDir("http"),
    CREWS_DIR: FIXTURE_CREWS,
    CREW_TOKEN: TEST_CREW_TOKEN,
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    OFFLINE_MODEL_DELAY_MS: "30",
    WORKER_LEASE_MS: "3000",
    WORKER_POLL_MS: "100",
    // tests/http/triggers.test.ts reaches a trigger's limit in a few deliveries.
    TRIGGER_RATE_PER_MINUTE: "10",
    // Every 2xx JSON answer is parsed with its route's declared schema (lib/http/check-response.ts).
    CREWDECK_CHECK_RESPONSES: "1",
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  const server = await startServer(serverEnv);
  project.provide("baseUrl", server.url);
  project.provide("serverEnv", serverEnv);
  project.provide("db", mode);
  return async () => {
    await server.kill();
    await openai.close();
  };
}
