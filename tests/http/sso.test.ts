import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  FIXTURE_CREWS,
  freePort,
  freshPostgresDatabase,
  type Proc,
  startServer,
  TEST_ADMIN,
  tempDir,
} from "../support/harness";
import { type Idp, startIdp } from "../support/idp";
import { signIn } from "../support/session";

// Single sign-on at the HTTP level, against a real OpenID Connect provider on loopback: the
// whole redirect dance with a cookie jar, the user it creates, a state that expired on the
// server's clock, a forged callback, re-checks of the groups, and password sign-in turned off.
const AUTH_SECRET = "sso-test-auth-secret-0123456789abcdef";
let idp: Idp;
let server: Proc & { url: string };
let admin: string;

beforeAll(async () => {
  const port = await freePort();
  idp = await startIdp({ redirectUri: `http://127.0.0.1:${port}/api/auth/callback/oidc` });
  idp.people.set("rita", {
    email: "Rita@Example.com",
    name: "Rita",
    groups: ["crewdeck-reviewers"],
  });
  idp.people.set("uma", {
    email: "uma@example.com",
    name: "Uma",
    groups: [],
    emailVerified: false,
  });
  const databaseUrl = inject("db") === "postgres" ? await freshPostgresDatabase() : undefined;
  server = await startServer({
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    PORT: String(port),
    DATA_DIR: tempDir("sso"),
    CREWS_DIR: FIXTURE_CREWS,
    AUTH_SECRET,
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    OIDC_ISSUER: idp.issuer,
    OIDC_CLIENT_ID: idp.clientId,
    OIDC_CLIENT_SECRET: idp.clientSecret,
    OIDC_NAME: "Acme ID",
    OIDC_SCOPES: "openid email profile groups",
    OIDC_ROLE_MAP: "crewdeck-admins=admin,crewdeck-reviewers=reviewer",
    OIDC_DEFAULT_ROLE: "viewer",
    PASSWORD_SIGN_IN: "false",
  });
  admin = await signIn(server.url, TEST_ADMIN.email, TEST_ADMIN.password);
});
afterAll(async () => {
  await server?.kill();
  await idp?.close();
});

/** A browser's cookie jar, enough for this flow (every server is on 127.0.0.1). */
class Browser {
  jar = new Map<string, string>();
  cookie = () => [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ");
  async fetch(url: string, init: RequestInit = {}) {
    const headers = new Headers(init.headers);
    if (this.jar.size) headers.set("cookie", this.cookie());
    const res = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const c of res.headers.getSetCookie()) {
      const [kv = "", ...attrs] = c.split(";");
      const i = kv.indexOf("=");
      const name = kv.slice(0, i);
      const gone = kv.slice(i + 1) === "" || attrs.some((a) => /max-age=0\b/i.test(a.trim()));
      if (gone) this.jar.delete(name);
      else this.jar.set(name, kv.slice(i + 1));
    }
    return res;
  }
  /** Follows redirects; stops before `stopAt` (returned, not fetched) or at a non-redirect. */
  async follow(url: string, init: RequestInit = {}, stopAt?: RegExp) {
    let res = await this.fetch(url, init);
    let at = url;
    for (let i = 0; i < 10 && res.status >= 300 && res.status < 400; i++) {
      at = new URL(res.headers.get("location") ?? "", at).toString();
      if (stopAt?.test(at)) return { res, at, stopped: true };
      res = await this.fetch(at);
    }
    return { res, at, stopped: false };
  }
}

/** Starts a sign-in with the provider, as the page's button does; returns the provider's login URL. */
async function start(b: Browser, callbackUrl = `${server.url}/runs`) {
  const csrf = await b.fetch(`${server.url}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const { res, at } = await b.follow(`${server.url}/api/auth/signin/oidc`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, callbackUrl }),
  });
  const page = await res.text();
  expect(res.status, `${at}: ${page.slice(0, 600)}`).toBe(200);
  expect(page).toContain("Test identity provider");
  return at;
}

/** Logs in at the provider; returns the callback URL the browser is sent to (not yet fetched). */
async function loginAtProvider(b: Browser, loginUrl: string, login: string) {
  const action = new URL(`${new URL(loginUrl).pathname}/login`, loginUrl).toString();
  const { at, stopped } = await b.follow(
    action,
    {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ login }),
    },
    /\/api\/auth\/callback\/oidc/,
  );
  expect(stopped).toBe(true);
  return at;
}

async function signInViaProvider(login: string) {
  const b = new Browser();
  const callback = await loginAtProvider(b, await start(b), login);
  const res = await b.fetch(callback);
  return { b, res, callback };
}

const usersByEmail = async () => {
  const res = await fetch(`${server.url}/api/users`, { headers: { cookie: admin } });
  const { users } = (await res.json()) as { users: { email: string; role: string }[] };
  return new Map(users.map((u) => [u.email, u.role]));
};

const me = (b: Browser) => b.fetch(`${server.url}/api/me/notifications`);

describe("sign in through the provider", () => {
  it("creates the person with the role their group maps to and lands on the page asked for", async () => {
    const { b, res } = await signInViaProvider("rita");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${server.url}/runs`);
    expect([...b.jar.keys()]).toContain("authjs.session-token");
    expect((await usersByEmail()).get("rita@example.com")).toBe("reviewer");
    expect((await me(b)).status).toBe(200);
    // The access token stays server-side: the session the browser can read does not carry it.
    const session = await (await b.fetch(`${server.url}/api/auth/session`)).text();
    expect(session).not.toMatch(/"at"|access_token/);
  });

  it("re-maps the role from the groups at the next request, and the default role outside them", async () => {
    const person = idp.people.get("rita");
    const { b } = await signInViaProvider("rita");
    if (person) person.groups = ["crewdeck-admins"];
    expect((await me(b)).status).toBe(200);
    expect((await usersByEmail()).get("rita@example.com")).toBe("admin");
    if (person) person.groups = ["somewhere-else"];
    expect((await me(b)).status).toBe(200);
    expect((await usersByEmail()).get("rita@example.com")).toBe("viewer");
    if (person) person.groups = ["crewdeck-reviewers"];
  });

  it("never sends the person off-site afterwards (no open redirect)", async () => {
    for (const evil of ["https://evil.example/phish", "//evil.example/phish"]) {
      const b = new Browser();
      const callback = await loginAtProvider(b, await start(b, evil), "rita");
      const res = await b.fetch(callback);
      expect(new URL(res.headers.get("location") ?? "", server.url).origin).toBe(server.url);
    }
  });

  it("refuses an email the provider marks unverified", async () => {
    const { res } = await signInViaProvider("uma");
    expect(res.headers.get("location")).toBe(`${server.url}/sign-in?error=sso-unverified-email`);
    expect((await usersByEmail()).has("uma@example.com")).toBe(false);
  });
});

describe("state", () => {
  it("a callback with no state of this browser (forged, or the cookie gone) is refused", async () => {
    const b = new Browser();
    const res = await b.fetch(
      `${server.url}/api/auth/callback/oidc?code=abc&state=xyz&iss=${encodeURIComponent(idp.issuer)}`,
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${server.url}/sign-in?error=sso-state`);
  });

  it("a state that expired on the server's clock is refused, though the browser still sends it", async () => {
    const b = new Browser();
    const callback = await loginAtProvider(b, await start(b), "rita");
    // The same state cookie, re-sealed as it would be 16 minutes later: past its 15 minutes.
    b.jar.set(
      "authjs.state",
      await encode({
        secret: AUTH_SECRET,
        salt: "authjs.state",
        maxAge: -60,
        token: { value: new URL(callback).searchParams.get("state"), provider: "oidc" },
      }),
    );
    const res = await b.fetch(callback);
    expect(res.headers.get("location")).toBe(`${server.url}/sign-in?error=sso-state`);
    expect([...b.jar.keys()]).not.toContain("authjs.session-token");
  });

  it("a replayed callback is refused", async () => {
    const { b, callback } = await signInViaProvider("rita");
    const again = await b.fetch(callback);
    expect(again.headers.get("location")).toBe(`${server.url}/sign-in?error=sso-state`);
  });

  it("an ID token for another client (wrong audience) is refused", async () => {
    idp.mode = "wrong-audience";
    try {
      const { b, res } = await signInViaProvider("rita");
      expect(res.headers.get("location")).toBe(`${server.url}/sign-in?error=sso-audience`);
      expect([...b.jar.keys()]).not.toContain("authjs.session-token");
    } finally {
      idp.mode = "normal";
    }
  });

  it("the sign-in page explains a refusal in a sentence", async () => {
    const res = await fetch(`${server.url}/sign-in?error=sso-audience`);
    const html = await res.text();
    expect(html).toContain("meant for another application (wrong audience)");
    expect(html).toContain("Sign in with Acme ID");
  });
});

describe("PASSWORD_SIGN_IN=false", () => {
  it("refuses a correct password of anyone but the recovery administrator", async () => {
    const created = await fetch(`${server.url}/api/users`, {
      method: "POST",
      headers: { cookie: admin, "content-type": "application/json", origin: server.url },
      body: JSON.stringify({
        email: "pat@example.com",
        password: "pat password 123",
        role: "viewer",
      }),
    });
    expect(created.status).toBe(201);
    await expect(signIn(server.url, "pat@example.com", "pat password 123")).rejects.toThrow(
      /failed/,
    );
    // The recovery administrator got in at the start of this file.
    expect(admin).toMatch(/authjs\.session-token=/);
  });

  it("refuses the recovery administrator's email through the provider", async () => {
    idp.people.set("imposter", {
      email: TEST_ADMIN.email,
      name: "Not the admin",
      groups: ["crewdeck-admins"],
    });
    const { res } = await signInViaProvider("imposter");
    expect(res.headers.get("location")).toBe(`${server.url}/sign-in?error=sso-recovery-account`);
  });
});
