import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { TEST_SERVER_FLAGS } from "./tests/support/node-flags.ts";
import { ensureTemplateSync } from "./tests/support/pglite-template";

// The dashboard in Debian's Chromium against a real `next start` on a fresh embedded database.
const PORT = Number(process.env.E2E_PORT ?? 3217);
const FAKE_LINEAR_PORT = Number(process.env.E2E_FAKE_LINEAR_PORT ?? 3219);
const DATA_DIR = path.join(os.tmpdir(), `crewdeck-e2e-${process.pid}`);

const FRESH_PORT = Number(process.env.E2E_FRESH_PORT ?? PORT + 3);
const FRESH_SPECS = /runs-list\.spec\.ts/;

// npm test runs the specs in two halves (E2E_PART=1 and 2), split by their measured times rather
// than by count, as --shard would: the first half, queued after the unit tests, is the shorter by
// about the two minutes the build and the embedded HTTP suite take longer than them. The first
// half is this list; the second is every other spec, so a new one is never left out. Only the
// second half needs the fresh server.
const FIRST_HALF =
  /\/(crew-page|dashboard|experiments|inbox|output-checks|remote-deployments|review-edit|review-email|review-flow|review-routing)\.spec\.ts$/;
const PART = process.env.E2E_PART;
const sharedSpecs =
  PART === "1"
    ? { testMatch: FIRST_HALF }
    : { testIgnore: PART === "2" ? [FRESH_SPECS, FIRST_HALF] : FRESH_SPECS };
const withFresh = PART !== "1";

// Each server's fresh embedded database starts as a copy of the tests' migrated template.
const TEMPLATE = ensureTemplateSync();

// Debian's chromium-headless-shell: the same Blink as its chromium, without the desktop browser
// around it, as Playwright's own headless default is. Measured (bench/browser-cost.mjs): a cold
// sign-in takes 0.9 CPU-s of the browser instead of 2.8, a navigation 0.27 instead of 0.42.
const CHROMIUM =
  process.env.CHROMIUM_PATH ??
  ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((p) => fs.existsSync(p));

export const E2E_ADMIN = { email: "admin@example.com", password: "correct horse battery" };

export default defineConfig({
  testDir: "e2e",
  // Two runs side by side (npm test runs two halves) each need their own.
  outputDir: process.env.E2E_OUTPUT_DIR ?? "test-results/e2e",
  // Hang guards sized for a loaded 2-core machine: npm test runs suites side by side.
  timeout: 360_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  workers: 1,
  // One retry, to record the failure's trace (use.trace); pass or fail, the run fails.
  retries: 1,
  failOnFlakyTests: true,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    // As a user who asked for less motion: the dashboard's pulses (a running status, the live dot)
    // stop, and headless Chromium no longer paints 60 frames a second while a run goes on.
    reducedMotion: "reduce",
    // A failed test is run once more with its trace recorded: each action's DOM snapshot, network
    // and console. Recording every test's trace in case it fails cost the browser tests three
    // tenths of their CPU (bench/RESULTS.md); a failure that does not happen again fails the run anyway
    // (failOnFlakyTests), with its error and a screenshot.
    trace: { mode: "on-first-retry", screenshots: false, snapshots: true, sources: true },
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: [
    server(PORT, DATA_DIR),
    ...(withFresh ? [server(FRESH_PORT, `${DATA_DIR}-fresh`)] : []),
  ],
  projects: [
    { name: "shared", ...sharedSpecs },
    // Specs that count every run on the server get one to themselves.
    ...(withFresh
      ? [
          {
            name: "fresh",
            testMatch: FRESH_SPECS,
            use: { baseURL: `http://127.0.0.1:${FRESH_PORT}` },
          },
        ]
      : []),
  ],
});

function server(port: number, dataDir: string) {
  return {
    command: [
      // A folder left by an earlier run whose process had the same pid would otherwise be reused
      // (cp -r into an existing pgdata nests the copy and keeps the old database).
      `rm -rf ${dataDir}`,
      `mkdir -p ${dataDir}`,
      `cp -r ${path.join(TEMPLATE, "pgdata")} ${path.join(dataDir, "pgdata")}`,
      `exec node ${TEST_SERVER_FLAGS.join(" ")} node_modules/next/dist/bin/next start -p ${port} -H 127.0.0.1`,
    ].join(" && "),
    url: `http://127.0.0.1:${port}/api/healthz`,
    reuseExistingServer: false,
    timeout: 300_000,
    env: {
      DATA_DIR: dataDir,
      CREWS_DIR: "tests/fixtures/crews",
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      OFFLINE_MODEL_DELAY_MS: "300",
      CREW_TOKEN: "e2e-org-token-0123456789abcdef",
      // Remote deployments in e2e/remote-deployments.spec.ts run on loopback and call us back.
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DEPLOYMENT_ALLOWED_NETWORKS: "127.0.0.0/8",
      // A remote on this loaded machine may be slow to answer; slow is not unreachable here.
      DEPLOYMENT_TIMEOUT_MS: "60000",
      // e2e/settings.spec.ts sends webhooks to a closed loopback port, never off the machine.
      WEBHOOK_ALLOWED_NETWORKS: "127.0.0.0/8",
      // e2e/linear-oauth.spec.ts starts the loopback Linear (OAuth + GraphQL) on this port.
      LINEAR_API_URL: `http://127.0.0.1:${FAKE_LINEAR_PORT}/graphql`,
      LINEAR_OAUTH_AUTHORIZE_URL: `http://127.0.0.1:${FAKE_LINEAR_PORT}/oauth/authorize`,
      LINEAR_OAUTH_TOKEN_URL: `http://127.0.0.1:${FAKE_LINEAR_PORT}/oauth/token`,
      LINEAR_OAUTH_REVOKE_URL: `http://127.0.0.1:${FAKE_LINEAR_PORT}/oauth/revoke`,
    },
  };
}
