import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { call } from "../support/api";
import { type FakeCrewAI, startFakeCrewAI, successScript } from "../support/fake-crewai";
import {
  cliArgs,
  FIXTURE_CREWS,
  freshPostgresDatabase,
  type Proc,
  ROOT,
  startServer,
  TEST_ADMIN,
  tempDir,
} from "../support/harness";
import { TEST_NODE_FLAGS } from "../support/node-flags";
import { signIn } from "../support/session";

// A stored deployment token survives rotating AUTH_SECRET, and rotating ENCRYPTION_KEY with
// `npm run secrets:reseal` in between; the same database and DATA_DIR across restarts.
const mode = inject("db");
const FAKE_TOKEN = "fake-crewai-token-rotation-0123456789";
const KEY_NEW = "a-new-encryption-key-0123456789abcdefgh";
let fake: FakeCrewAI;
let base: Record<string, string>;
let running: Proc | undefined;

beforeAll(async () => {
  fake = await startFakeCrewAI({ token: FAKE_TOKEN, script: successScript(100) });
  base = {
    DATA_DIR: tempDir("rotation"),
    CREWS_DIR: FIXTURE_CREWS,
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    RUN_WORKER: "false",
    DEPLOYMENT_ALLOWED_NETWORKS: "127.0.0.0/8",
    // A remote on this loaded machine may be slow to answer; slow is not unreachable here.
    DEPLOYMENT_TIMEOUT_MS: "60000",
  };
  if (mode === "postgres") base.DATABASE_URL = (await freshPostgresDatabase()) as string;
});
afterAll(async () => {
  await running?.kill();
  await fake?.close();
});

/** Starts the server with `env`, runs `fn` as the signed-in admin, stops it again. */
async function withServer(env: Record<string, string>, fn: (admin: Admin) => Promise<void>) {
  const web = await startServer({ ...base, ...env });
  running = web;
  try {
    const headers = {
      cookie: await signIn(web.url, TEST_ADMIN.email, TEST_ADMIN.password),
      origin: web.url,
    };
    await fn((method, p, body) => call(web.url, method, p, { headers, body }));
  } finally {
    await web.kill();
    running = undefined;
  }
}
type Admin = (method: string, path: string, body?: unknown) => ReturnType<typeof call>;

const connects = async (admin: Admin) => {
  const r = await admin("POST", "/api/deployments/rotating/test");
  expect(r.status, r.text).toBe(200);
  expect(r.json.ok, r.text).toBe(true);
};

describe("rotating secrets", () => {
  it("AUTH_SECRET, then ENCRYPTION_KEY with a reseal: the deployment token stays usable", async () => {
    await withServer({ AUTH_SECRET: "first-session-secret-0123456789abcdef" }, async (admin) => {
      const r = await admin("POST", "/api/deployments", {
        name: "Rotating",
        base_url: fake.url,
        token: FAKE_TOKEN,
      });
      expect(r.status, r.text).toBe(201);
      await connects(admin);
    });
    // A new session secret: sessions start over, sealed secrets do not.
    await withServer({ AUTH_SECRET: "second-session-secret-0123456789abcdef" }, connects);

    // Rotation: the new key first, the one generated into DATA_DIR after it.
    const generated = fs.readFileSync(
      path.join(base.DATA_DIR as string, "secrets/sealing-key"),
      "utf8",
    );
    const both = `${KEY_NEW},${generated.trim()}`;
    await withServer({ ENCRYPTION_KEY: both }, connects);
    const reseal = (key: string) =>
      spawnSync(process.execPath, [...TEST_NODE_FLAGS, ...cliArgs("secrets:reseal")], {
        cwd: ROOT,
        env: { ...process.env, ...base, ENCRYPTION_KEY: key },
        encoding: "utf8",
      });
    const first = reseal(both);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/resealed 1 secret\(s\), 0 already under it/);
    expect(reseal(both).stdout).toMatch(/resealed 0 secret\(s\), 1 already under it/);

    // The old key dropped: everything was moved onto the new one.
    await withServer({ ENCRYPTION_KEY: KEY_NEW }, connects);
  }, 240_000); // four server starts and two runs of the command
});
