import "server-only";
import { installPeerAddressHeader } from "@/lib/auth/client-address";
import { issueSetupCode } from "@/lib/auth/setup-code";
import { countUsersWithPassword, ensureBootstrapAdmin } from "@/lib/auth/users";
import { env } from "@/lib/config/env";
import { problemLines } from "@/lib/crew/describe-catalog";
import { crewCatalog, watchCrewCatalog } from "@/lib/crew/registry";
import { getDb } from "@/lib/db";
import { errorMessage } from "@/lib/errors";
import { wireA2aPushes } from "@/lib/protocols/a2a/push-payloads";
import { startTelemetry, stopTelemetry } from "@/lib/telemetry/start";
import { seedDemoWorkspace } from "@/lib/tracker/seed";
import { onShutdown } from "./shutdown";
import { startWorkers } from "./start-workers";

declare global {
  var __crewdeckBooted: boolean | undefined;
}
const slot = globalThis;

/** Start-up of the web process: migrate, load crews, start the in-process worker, say hello. */
async function bootServer() {
  if (slot.__crewdeckBooted) return;
  slot.__crewdeckBooted = true;
  wireA2aPushes(); // before anything can write a run (a route, the in-process worker)
  installPeerAddressHeader(); // sign-in throttling needs the caller's real address
  const e = env();
  const db = await getDb();
  if (db.kind === "embedded") {
    // Only this process can open the embedded database, so any lease in it belongs to a process
    // that died: hand that work back at once instead of waiting for the leases to run out.
    await db.query(
      "UPDATE executions SET lease_owner = NULL, lease_expires_at = NULL WHERE lease_owner IS NOT NULL",
    );
    await db.query(
      "UPDATE webhook_deliveries SET status = 'pending', lease_owner = NULL, lease_expires_at = NULL WHERE status = 'delivering'",
    );
  }
  if (await ensureBootstrapAdmin(db, { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD })) {
    console.log(`Created the administrator ${e.ADMIN_EMAIL} (ADMIN_EMAIL).`);
  }
  const needsSetup = (await countUsersWithPassword(db)) === 0;
  // Until someone can sign in, /setup asks for this code, printed only here (as Jupyter does).
  const setupCode = needsSetup ? await issueSetupCode(db) : undefined;
  await seedDemoWorkspace(db);
  const catalog = crewCatalog();
  const base = `http://localhost:${e.PORT}`;

  const lines = [
    "",
    `Crewdeck is ready at ${base}  (database: ${db.kind === "embedded" ? `embedded, in ${e.DATA_DIR}` : "PostgreSQL"})`,
    "",
    catalog.crews.size ? "Crews:" : `No crews found in ${e.CREWS_DIR}.`,
    ...[...catalog.crews.values()].map(
      (c) =>
        `  ${c.name}\n    ${base}/api/crews/${c.slug}   inputs: ${c.inputs.join(", ") || "(none)"}`,
    ),
    ...problemLines(catalog),
    ...(e.LLM_OVERRIDE
      ? [`  Models: LLM_OVERRIDE=${e.LLM_OVERRIDE}: every agent of every crew runs on it.`]
      : []),
    "",
    e.CREW_TOKEN
      ? "API token: CREW_TOKEN from the environment is accepted as an organization token."
      : "API token: run `npm run token -- create --org` and send it as `Authorization: Bearer <token>`.",
    `API reference: ${base}/docs/api`,
    needsSetup
      ? `Dashboard: open ${base}/setup to create the first administrator.\nSetup code: ${setupCode}  (asked for on that page; valid until the first administrator exists)`
      : `Dashboard: ${base}`,
    "",
  ];
  announce(lines.join("\n"));

  await startTelemetry(); // traces over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set; else nothing
  const worker = e.RUN_WORKER ? startWorkers(db) : undefined;
  const crewWatcher = watchCrewCatalog(); // edits to CREWS_DIR apply without a restart
  onShutdown(
    async () => {
      crewWatcher.close();
      await worker?.stop(e.SHUTDOWN_TIMEOUT_MS);
      await stopTelemetry();
      await db.close();
    },
    { deadlineMs: e.SHUTDOWN_TIMEOUT_MS },
  );
}

/**
 * Under `npm start` (scripts/start.mjs) the launcher prints the banner once the server answers,
 * so it is the last thing on the console, after the framework's own start-up lines.
 */
function announce(banner: string) {
  if (process.env.CREWDECK_BANNER_TO_PARENT === "1" && process.send) {
    process.send({ crewdeckBanner: banner }, () => process.disconnect?.());
    return;
  }
  console.log(banner);
}

/** A server that cannot reach its database or read its settings says why and stops. */
export async function bootOrExit() {
  try {
    await bootServer();
  } catch (err) {
    console.error(`[crewdeck] cannot start: ${errorMessage(err)}`);
    process.exit(1);
  }
}
