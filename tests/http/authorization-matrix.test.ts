import { beforeAll, describe, expect, inject, it } from "vitest";
import { call, crewClient } from "../support/api";
import { TEST_ADMIN, TEST_CREW_TOKEN, tokenCli } from "../support/harness";
import { signIn } from "../support/session";

// Every route × every kind of caller → the expected status, and no 404 that leaks what it hides.
const baseUrl = inject("baseUrl");
const serverEnv = inject("serverEnv");
const SECRET_SUBJECT = "alice-private-subject-7f3a";
const NO_SUCH = "00000000-0000-4000-8000-000000000000";

type Caller =
  | "none"
  | "malformed"
  | "unknown"
  | "revoked"
  | "otherUser"
  | "viewer"
  | "reviewer"
  | "org";
const CALLERS: Caller[] = [
  "none",
  "malformed",
  "unknown",
  "revoked",
  "otherUser",
  "viewer",
  "reviewer",
  "org",
];
const headersOf: Partial<Record<Caller, Record<string, string>>> = {};
let paused: string;

beforeAll(async () => {
  const alice = (await tokenCli(["create", "--user", "alice-matrix@example.com"], serverEnv))
    .token as string;
  const bob = (await tokenCli(["create", "--user", "bob-matrix@example.com"], serverEnv))
    .token as string;
  const revoked = await tokenCli(["create", "--org"], serverEnv);
  await tokenCli(["revoke", revoked.id as string], serverEnv);
  const admin = await signIn(baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
  const asAdmin = { cookie: admin, origin: baseUrl };
  for (const role of ["viewer", "reviewer"]) {
    const r = await call(baseUrl, "POST", "/api/users", {
      headers: asAdmin,
      body: { email: `${role}-matrix@example.com`, password: `${role} password 123`, role },
    });
    expect(r.status, r.text).toBe(201);
  }
  headersOf.none = {};
  headersOf.malformed = { authorization: "Bearer" };
  headersOf.unknown = { authorization: "Bearer cdo_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" };
  headersOf.revoked = { authorization: `Bearer ${revoked.token}` };
  headersOf.otherUser = { authorization: `Bearer ${bob}` };
  headersOf.viewer = {
    cookie: await signIn(baseUrl, "viewer-matrix@example.com", "viewer password 123"),
    origin: baseUrl,
  };
  headersOf.reviewer = {
    cookie: await signIn(baseUrl, "reviewer-matrix@example.com", "reviewer password 123"),
    origin: baseUrl,
  };
  headersOf.org = { authorization: `Bearer ${TEST_CREW_TOKEN}` };
  const owner = crewClient(baseUrl, "review", alice);
  paused = await owner.start({ subject: SECRET_SUBJECT });
  await owner.waitFor(paused, (s) => s.status === "pending_human_input");
});

const A = 401; // every bad token, before anything else
type Row = [string, string, () => unknown, Record<Caller, number>];
const row = (otherUser: number, viewer: number, reviewer: number, org: number) => ({
  none: A,
  malformed: A,
  unknown: A,
  revoked: A,
  otherUser,
  viewer,
  reviewer,
  org,
});

const ROUTES: Row[] = [
  ["GET", "/api/crews/review/inputs", () => undefined, row(200, 200, 200, 200)],
  ["GET", "/api/crews/review/status/{paused}", () => undefined, row(404, 200, 200, 200)],
  ["GET", "/api/crews/review/executions/{paused}/events", () => undefined, row(404, 200, 200, 200)],
  [
    "POST",
    "/api/crews/review/kickoff",
    () => ({ inputs: { subject: "matrix" } }),
    row(200, 403, 200, 200),
  ],
  ["POST", `/api/crews/review/stop/${NO_SUCH}`, () => undefined, row(404, 403, 404, 404)],
  [
    "POST",
    "/api/crews/review/resume",
    () => ({ execution_id: paused, task_id: "polish", human_feedback: "x", is_approve: true }),
    // otherUser: a personal token acts with its owner's role, and bob is an operator. Past the
    // access check: 400, the task is not the one awaiting review.
    row(403, 403, 400, 400),
  ],
  ["GET", "/api/runs", () => undefined, row(200, 200, 200, 200)],
  ["GET", "/api/webhooks/deliveries", () => undefined, row(403, 403, 403, 200)],
  [
    "POST",
    `/api/webhooks/deliveries/${NO_SUCH}/redeliver`,
    () => undefined,
    row(403, 403, 403, 404),
  ],
  ["GET", "/api/users", () => undefined, row(403, 403, 403, 403)],
  // Clearing someone's sign-in locks: a signed-in administrator only, never a token.
  ["POST", `/api/users/${NO_SUCH}/unlock`, () => undefined, row(403, 403, 403, 403)],
  ["GET", "/api/tokens", () => undefined, row(403, 200, 200, 403)],
  ["GET", "/api/integrations/settings", () => undefined, row(403, 403, 403, 200)],
  ["GET", "/api/settings/webhook-secret", () => undefined, row(403, 403, 403, 403)],
  ["GET", "/api/deployments", () => undefined, row(200, 200, 200, 200)],
  [
    "POST",
    "/api/deployments",
    () => ({ name: "", base_url: "x", token: "" }),
    row(403, 403, 403, 403),
  ],
  // Managing deployments (whose tokens this server sends out) is for administrators only.
  ["PATCH", "/api/deployments/no-such", () => ({ name: "x" }), row(403, 403, 403, 403)],
  ["DELETE", "/api/deployments/no-such", () => undefined, row(403, 403, 403, 403)],
  ["POST", "/api/deployments/no-such/test", () => undefined, row(403, 403, 403, 403)],
  ["GET", "/api/crews/@no-such/inputs", () => undefined, row(404, 404, 404, 404)],
];

describe("authorization matrix", () => {
  for (const [method, path, body, expected] of ROUTES) {
    for (const caller of CALLERS) {
      it(`${method} ${path} as ${caller} → ${expected[caller]}`, async () => {
        const r = await call(baseUrl, method, path.replace("{paused}", paused), {
          headers: headersOf[caller],
          body: body(),
        });
        expect(r.status, r.text).toBe(expected[caller]);
        if (r.status >= 400)
          expect(r.headers.get("content-type")).toContain("application/problem+json");
        if (caller !== "org" && caller !== "viewer" && caller !== "reviewer")
          expect(r.text).not.toContain(SECRET_SUBJECT);
      });
    }
  }
  it("a user token's run list holds only its own runs", async () => {
    const r = await call(baseUrl, "GET", "/api/runs?per_page=100", {
      headers: headersOf.otherUser,
    });
    expect(r.text).not.toContain(SECRET_SUBJECT);
  });
});
