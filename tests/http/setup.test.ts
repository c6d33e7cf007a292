import { afterAll, describe, expect, inject, it } from "vitest";
import { call } from "../support/api";
import {
  FIXTURE_CREWS,
  freshPostgresDatabase,
  type Proc,
  startServer,
  TEST_CREW_TOKEN,
  tempDir,
} from "../support/harness";
import { signIn } from "../support/session";

// First-run setup on a server started WITHOUT ADMIN_EMAIL: it prints a one-time code, /api/setup
// wants it, and of many simultaneous right submissions exactly one becomes the administrator.
// TRUST_PROXY lets each part of the test speak from its own client address (X-Forwarded-For), so
// the wrong-code throttle of one part does not refuse the next.
let web: Proc & { url: string };
afterAll(async () => {
  await web?.kill("SIGKILL");
});

const setup = (body: unknown, address: string) =>
  call(web.url, "POST", "/api/setup", { body, headers: { "x-forwarded-for": address } });
const admin = (i: number) => ({
  email: `first${i}@example.com`,
  name: `First ${i}`,
  password: `first admin password ${i}`,
});

describe("first-run setup", () => {
  let code = "";

  it("prints a setup code at start when nobody can sign in", async () => {
    const databaseUrl = inject("db") === "postgres" ? await freshPostgresDatabase() : undefined;
    web = await startServer({
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      DATA_DIR: tempDir("setup"),
      CREWS_DIR: FIXTURE_CREWS,
      CREW_TOKEN: TEST_CREW_TOKEN,
      ADMIN_EMAIL: undefined,
      ADMIN_PASSWORD: undefined,
      TRUST_PROXY: "true",
    });
    code = /Setup code: (\S+)/.exec(web.output())?.[1] ?? "";
    expect(code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
  });

  it("refuses malformed bodies, missing fields and a wrong code", async () => {
    const r400 = await call(web.url, "POST", "/api/setup", { body: "{nope" });
    expect(r400.status).toBe(400);
    const r422 = await setup({ code, email: "x@example.com" }, "10.0.0.1");
    expect(r422.status).toBe(422);
    expect(JSON.stringify(r422.json.errors)).toContain("password");
    const r403 = await setup({ ...admin(0), code: "AAAA-BBBB-CCCC" }, "10.0.0.1");
    expect(r403.status).toBe(403);
    expect(r403.json.detail).toMatch(/setup code/i);
  });

  it("throttles wrong codes per address, with Retry-After", async () => {
    const statuses = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await setup({ ...admin(0), code: `WRNG-CODE-000${i}` }, "10.0.0.2")).status);
    expect(statuses).toEqual([403, 403, 403, 403, 429]);
    // Locked: even the right code is refused from that address for now.
    const locked = await setup({ ...admin(0), code }, "10.0.0.2");
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(locked.json.detail).toMatch(/Too many attempts; try again in \d+ minute/);
  });

  it("8 simultaneous right submissions make exactly one administrator", async () => {
    const replies = await Promise.all(
      Array.from({ length: 8 }, (_, i) => setup({ ...admin(i + 1), code }, "10.0.0.3")),
    );
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    const winner = replies.find((r) => r.status === 201)?.json;
    expect(winner.role).toBe("admin");

    const cookie = await signIn(
      web.url,
      winner.email,
      admin(Number(winner.name.slice(6))).password,
    );
    const users = await call(web.url, "GET", "/api/users", { headers: { cookie } });
    expect(users.status).toBe(200);
    expect(users.json.users.map((u: { email: string }) => u.email)).toEqual([winner.email]);

    // Done: the code is spent and the endpoint says so.
    const again = await setup({ ...admin(9), code }, "10.0.0.4");
    expect(again.status).toBe(409);
  });
});
